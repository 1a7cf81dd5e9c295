package editimage

import (
	"fmt"
	"image"
	"image/color"
	"strings"

	"github.com/kovidgoyal/imaging"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// information describes an image with the fields of GraphicsMagick's identify that can be told
// from it, in identify's order and with the helper fields (format, size, depth) n8n's gm library
// adds next to them. src is the decoded image, nil when it is too large to decode: then the
// fields come from its header alone and transparency is not looked for.
func information(cfg image.Config, format string, src image.Image, size int) *workflow.Object {
	w, h := cfg.Width, cfg.Height
	model := cfg.ColorModel
	depth := 8
	switch model {
	case color.RGBA64Model, color.NRGBA64Model, color.Gray16Model, color.Alpha16Model:
		depth = 16
	}
	palette, paletted := model.(color.Palette)
	class, typ := "DirectClass", "true color"
	switch {
	case paletted:
		class, typ = "PseudoClass", "palette"
	case model == color.GrayModel || model == color.Gray16Model:
		typ = "grayscale"
	}
	if src != nil && !imaging.IsOpaque(src) {
		typ += " with transparency"
	}
	out := workflow.NewObject(16)
	out.Set("Format", describeFormat(format))
	out.Set("format", strings.ToUpper(format))
	out.Set("Geometry", fmt.Sprintf("%dx%d", w, h))
	out.Set("size", workflow.ObjectOf("width", w, "height", h))
	out.Set("Class", class)
	out.Set("Type", typ)
	out.Set("Depth", fmt.Sprintf("%d bits-per-pixel component", depth))
	out.Set("depth", depth)
	if paletted {
		out.Set("Colors", fmt.Sprint(len(palette)))
		out.Set("color", len(palette))
	}
	fs := fileSize(size)
	out.Set("Filesize", fs)
	out.Set("filesize", fs)
	out.Set("Interlace", "No")
	out.Set("Orientation", "Unknown")
	out.Set("Page geometry", fmt.Sprintf("%dx%d+0+0", w, h))
	if c, ok := compressions[format]; ok {
		out.Set("Compression", c)
	}
	return out
}

var compressions = map[string]string{"png": "Zip", "jpeg": "JPEG", "gif": "LZW", "bmp": "None", "webp": "WebP"}

// fileSize formats a byte count as GraphicsMagick does (binary units, one decimal).
func fileSize(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%dB", n)
	}
	f := float64(n)
	for _, u := range []string{"Ki", "Mi", "Gi"} {
		f /= 1024
		if f < 1024 {
			return fmt.Sprintf("%.1f%s", f, u)
		}
	}
	return fmt.Sprintf("%.1fTi", f/1024)
}
