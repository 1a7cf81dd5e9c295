package editimage

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/gofont/gosmallcaps"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/flowmill/flowmill/pkg/nodes"
)

// fonts are the bundled fonts (the Go fonts); "default" is Go Regular. n8n lists the fonts of
// the machine it runs on instead.
var fonts = []struct {
	name string
	ttf  []byte
}{
	{"Go Regular", goregular.TTF}, {"Go Bold", gobold.TTF}, {"Go Italic", goitalic.TTF},
	{"Go Bold Italic", gobolditalic.TTF}, {"Go Medium", gomedium.TTF}, {"Go Mono", gomono.TTF},
	{"Go Mono Bold", gomonobold.TTF}, {"Go Smallcaps", gosmallcaps.TTF},
}

var (
	parsedMu sync.Mutex
	parsed   = map[string]*opentype.Font{}
)

// fontByName returns a bundled font by its name; empty or "default" is Go Regular, and so is a
// font file path from a workflow made with n8n, which lists the machine's font files.
func fontByName(name string) (*opentype.Font, error) {
	if name == "" || name == "default" || isFontPath(name) {
		name = "Go Regular"
	}
	parsedMu.Lock()
	defer parsedMu.Unlock()
	if f, ok := parsed[name]; ok {
		return f, nil
	}
	for _, f := range fonts {
		if strings.EqualFold(f.name, name) {
			ot, err := opentype.Parse(f.ttf)
			if err != nil {
				return nil, err
			}
			parsed[name] = ot
			return ot, nil
		}
	}
	names := make([]string, len(fonts))
	for k, f := range fonts {
		names[k] = f.name
	}
	return nil, fmt.Errorf("The font %q is not available; the fonts are: default, %s", name, strings.Join(names, ", "))
}

func isFontPath(name string) bool {
	lower := strings.ToLower(name)
	return strings.ContainsAny(name, `/\`) || strings.HasSuffix(lower, ".ttf") || strings.HasSuffix(lower, ".otf") ||
		strings.HasSuffix(lower, ".ttc")
}

// getFonts answers the font list of the editor.
func getFonts(context.Context, nodes.LoadOptionsRequest) ([]nodes.OptionValue, error) {
	out := []nodes.OptionValue{{Name: "default", Value: "default"}}
	for _, f := range fonts {
		out = append(out, nodes.OptionValue{Name: f.name, Value: f.name})
	}
	return out, nil
}

// wrapText breaks text into lines of at most lineLength characters at spaces, as n8n does
// before handing it to GraphicsMagick.
func wrapText(text string, lineLength int) []string {
	var lines []string
	for _, textLine := range strings.Split(text, "\n") {
		current := ""
		for _, part := range strings.Split(textLine, " ") {
			if len([]rune(current))+len([]rune(part))+1 > lineLength {
				lines = append(lines, strings.TrimSpace(current))
				current = part + " "
				continue
			}
			current += part + " "
		}
		lines = append(lines, strings.TrimSpace(current))
	}
	return lines
}

// drawText writes the lines with the first baseline at x,y, size in pixels (points at 72 dpi).
func drawText(img *image.NRGBA, lines []string, f *opentype.Font, size float64, x, y int, c color.NRGBA) error {
	if size <= 0 {
		size = 12
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return err
	}
	defer face.Close()
	d := &font.Drawer{Dst: img, Src: image.NewUniform(c), Face: face}
	lineHeight := face.Metrics().Height
	dot := fixed.P(x, y)
	for _, line := range lines {
		d.Dot = dot
		d.DrawString(line)
		dot.Y += lineHeight
	}
	return nil
}
