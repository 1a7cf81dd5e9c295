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
// from the decoded image, in its order and with the helper fields (format, size, depth) n8n's gm
// library adds next to them.
func information(d *decoded, size int) *workflow.Object {
	b := d.source.Bounds()
	w, h := b.Dx(), b.Dy()
	depth := 8
	switch d.source.ColorModel() {
	case color.RGBA64Model, color.NRGBA64Model, color.Gray16Model, color.Alpha16Model:
		depth = 16
	}
	_, paletted := d.source.(*image.Paletted)
	opaque := imaging.IsOpaque(d.img)
	class, typ := "DirectClass", "true color"
	switch {
	case paletted:
		class, typ = "PseudoClass", "palette"
	case d.source.ColorModel() == color.GrayModel || d.source.ColorModel() == color.Gray16Model:
		typ = "grayscale"
	}
	if !opaque {
		typ += " with transparency"
	}
	out := workflow.NewObject(16)
	out.Set("Format", describeFormat(d.format))
	out.Set("format", strings.ToUpper(d.format))
	out.Set("Geometry", fmt.Sprintf("%dx%d", w, h))
	out.Set("size", workflow.ObjectOf("width", w, "height", h))
	out.Set("Class", class)
	out.Set("Type", typ)
	out.Set("Depth", fmt.Sprintf("%d bits-per-pixel component", depth))
	out.Set("depth", depth)
	if p, ok := d.source.(*image.Paletted); ok {
		out.Set("Colors", fmt.Sprint(len(p.Palette)))
		out.Set("color", len(p.Palette))
	}
	fs := fileSize(size)
	out.Set("Filesize", fs)
	out.Set("filesize", fs)
	out.Set("Interlace", "No")
	out.Set("Orientation", "Unknown")
	out.Set("Page geometry", fmt.Sprintf("%dx%d+0+0", w, h))
	if c, ok := compressions[d.format]; ok {
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
