package editimage

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"
)

// namedColors are the color names most used in workflows; GraphicsMagick knows many more.
var namedColors = map[string]color.NRGBA{
	"transparent": {}, "none": {},
	"black": {0, 0, 0, 255}, "white": {255, 255, 255, 255}, "red": {255, 0, 0, 255},
	"green": {0, 128, 0, 255}, "lime": {0, 255, 0, 255}, "blue": {0, 0, 255, 255},
	"yellow": {255, 255, 0, 255}, "cyan": {0, 255, 255, 255}, "magenta": {255, 0, 255, 255},
	"gray": {128, 128, 128, 255}, "grey": {128, 128, 128, 255}, "orange": {255, 165, 0, 255},
	"purple": {128, 0, 128, 255}, "brown": {165, 42, 42, 255}, "pink": {255, 192, 203, 255},
}

// parseColor reads a color as GraphicsMagick does for the values n8n passes: #rgb, #rrggbb, and
// #rrggbbaa whose last pair is the opacity (00 opaque, ff fully transparent — GraphicsMagick's
// reading, which n8n's defaults such as #ff000000 for an opaque red rely on); also rgb() and
// rgba() (0–255 values, the fourth an opacity too), and common names.
func parseColor(s string) (color.NRGBA, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if c, ok := namedColors[t]; ok {
		return c, nil
	}
	if strings.HasPrefix(t, "#") {
		h := t[1:]
		if len(h) == 3 || len(h) == 4 {
			var b strings.Builder
			for _, r := range h {
				b.WriteRune(r)
				b.WriteRune(r)
			}
			h = b.String()
		}
		if len(h) != 6 && len(h) != 8 {
			return color.NRGBA{}, fmt.Errorf("invalid color %q", s)
		}
		v, err := strconv.ParseUint(h, 16, 32)
		if err != nil {
			return color.NRGBA{}, fmt.Errorf("invalid color %q", s)
		}
		if len(h) == 6 {
			return color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}, nil
		}
		return color.NRGBA{uint8(v >> 24), uint8(v >> 16), uint8(v >> 8), 255 - uint8(v)}, nil
	}
	if inner, ok := strings.CutPrefix(t, "rgba("); ok {
		return parseRGB(s, strings.TrimSuffix(inner, ")"), 4)
	}
	if inner, ok := strings.CutPrefix(t, "rgb("); ok {
		return parseRGB(s, strings.TrimSuffix(inner, ")"), 3)
	}
	return color.NRGBA{}, fmt.Errorf("invalid color %q", s)
}

func parseRGB(orig, inner string, n int) (color.NRGBA, error) {
	parts := strings.Split(inner, ",")
	if len(parts) != n {
		return color.NRGBA{}, fmt.Errorf("invalid color %q", orig)
	}
	var v [4]float64
	for k, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return color.NRGBA{}, fmt.Errorf("invalid color %q", orig)
		}
		v[k] = f
	}
	// As with the hex form, GraphicsMagick reads rgba()'s fourth value as opacity, 0–255.
	a := 255.0
	if n == 4 {
		a = 255 - v[3]
	}
	c8 := func(f float64) uint8 { return uint8(max(0, min(255, f+0.5))) }
	return color.NRGBA{c8(v[0]), c8(v[1]), c8(v[2]), c8(a)}, nil
}
