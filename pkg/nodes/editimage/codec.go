package editimage

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strings"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
	_ "golang.org/x/image/webp" // decoding only: Go has no WebP encoder

	"github.com/kovidgoyal/imaging"

	"github.com/flowmill/flowmill/pkg/nodes"
)

// maxPixels is how many pixels one image of this run may have: decoded, every pixel takes 4
// bytes, so the unpacking cap (FLOWMILL_UNPACK_MAX_SIZE) bounds the memory an image takes.
func maxPixels(ex *nodes.Execution) int64 { return ex.UnpackMaxBytes() / 4 }

// checkSize refuses an image of w×h pixels past the run's pixel limit.
func checkSize(ex *nodes.Execution, w, h int, i int) error {
	if w <= 0 || h <= 0 {
		return nodes.Errorf(i, "The image would be %dx%d pixels; both sides must be at least 1", w, h)
	}
	if limit := maxPixels(ex); int64(w)*int64(h) > limit {
		return nodes.Errorf(i, "The image is %dx%d pixels, more than the %d pixels this instance allows (FLOWMILL_UNPACK_MAX_SIZE / 4)", w, h, limit)
	}
	return nil
}

// decoded is an image read from binary data.
type decoded struct {
	img    *image.NRGBA
	format string // png, jpeg, gif, bmp, tiff, webp
}

// header reads an image's format and declared size without decoding its pixels.
func header(data []byte, i int) (image.Config, string, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return cfg, "", nodes.Errorf(i, "The binary data is not an image this node can read (png, jpeg, gif, bmp, tiff, webp): %v", err)
	}
	return cfg, format, nil
}

// decode reads an image after checking its declared size, so a small file claiming a huge
// canvas (a decompression bomb) fails before any pixel memory is taken. It uses the Go decoders,
// not imaging.Decode, which falls back to running ImageMagick.
func decode(ctx context.Context, ex *nodes.Execution, data []byte, i int) (*decoded, error) {
	cfg, format, err := header(data, i)
	if err != nil {
		return nil, err
	}
	if err := checkSize(ex, cfg.Width, cfg.Height, i); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, nodes.Errorf(i, "The image could not be decoded: %v", err)
	}
	return &decoded{img: toNRGBA(src), format: format}, nil
}

// toNRGBA gives an image with its origin at 0,0 in the one pixel layout the operations use.
func toNRGBA(img image.Image) *image.NRGBA {
	if n, ok := img.(*image.NRGBA); ok && n.Rect.Min == (image.Point{}) {
		return n
	}
	return imaging.Clone(img)
}

// formats maps the format option to what n8n's prepareBinaryData detects in the written bytes.
var formats = map[string]struct{ mime, ext string }{
	"png":  {"image/png", "png"},
	"jpeg": {"image/jpeg", "jpg"},
	"gif":  {"image/gif", "gif"},
	"bmp":  {"image/bmp", "bmp"},
	"tiff": {"image/tiff", "tif"},
}

// normalFormat maps format names and aliases to the keys of formats.
func normalFormat(f string) string {
	switch f = strings.ToLower(strings.TrimSpace(f)); f {
	case "jpg":
		return "jpeg"
	case "tif":
		return "tiff"
	}
	return f
}

// encode writes img in format; quality (0–100, -1 for none) sets JPEG quality and PNG
// compression as GraphicsMagick does.
func encode(img *image.NRGBA, format string, quality int, i int) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	switch format {
	case "png":
		enc := png.Encoder{CompressionLevel: png.DefaultCompression}
		if quality >= 0 {
			// GraphicsMagick reads the tens digit of a PNG quality as the zlib level.
			switch level := quality / 10; {
			case level == 0:
				enc.CompressionLevel = png.NoCompression
			case level <= 3:
				enc.CompressionLevel = png.BestSpeed
			case level >= 9:
				enc.CompressionLevel = png.BestCompression
			}
		}
		err = enc.Encode(&buf, img)
	case "jpeg":
		// GraphicsMagick's default JPEG quality.
		q := 75
		if quality >= 0 {
			q = max(1, min(100, quality))
		}
		// JPEG has no transparency: transparent pixels become white, as with GraphicsMagick.
		err = jpeg.Encode(&buf, imaging.PasteOntoBackground(img, color.White), &jpeg.Options{Quality: q})
	case "gif":
		err = gif.Encode(&buf, img, nil)
	case "bmp":
		err = bmp.Encode(&buf, img)
	case "tiff":
		err = tiff.Encode(&buf, img, &tiff.Options{Compression: tiff.Deflate, Predictor: true})
	case "webp":
		return nil, nodes.Errorf(i, "The format \"webp\" can not be written (there is no WebP encoder); choose bmp, gif, jpeg, png or tiff")
	default:
		return nil, nodes.Errorf(i, "The format %q is not supported; choose bmp, gif, jpeg, png or tiff", format)
	}
	if err != nil {
		return nil, nodes.Errorf(i, "The image could not be written as %s: %v", format, err)
	}
	return buf.Bytes(), nil
}

// formatNames are the long names GraphicsMagick's identify gives the formats.
var formatNames = map[string]string{
	"png":  "PNG (Portable Network Graphics)",
	"jpeg": "JPEG (Joint Photographic Experts Group JFIF format)",
	"gif":  "GIF (CompuServe graphics interchange format)",
	"bmp":  "BMP (Microsoft Windows bitmap image)",
	"tiff": "TIFF (Tagged Image File Format)",
	"webp": "WEBP (WebP Image Format)",
}

func describeFormat(f string) string {
	if n, ok := formatNames[f]; ok {
		return n
	}
	return fmt.Sprintf("%s (%s)", strings.ToUpper(f), f)
}
