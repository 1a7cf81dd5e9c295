package editimage

import (
	"image/color"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseColor(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]color.NRGBA{
		"#f00":               {255, 0, 0, 255},
		"#00FF00":            {0, 255, 0, 255},
		"#ff000000":          {255, 0, 0, 255}, // the last pair is GraphicsMagick's opacity
		"#ffffffff":          {255, 255, 255, 0},
		"#0000ff80":          {0, 0, 255, 127},
		"rgb(1, 2, 3)":       {1, 2, 3, 255},
		"rgba(10,20,30,255)": {10, 20, 30, 0},
		" Red ":              {255, 0, 0, 255},
		"transparent":        {},
	} {
		got, err := parseColor(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "#12", "#gggggg", "rgb(1,2)", "chartreuse-ish"} {
		_, err := parseColor(bad)
		require.Error(t, err, bad)
	}
}
