package editimage_test

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"testing"

	"github.com/stretchr/testify/require"
	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/editimage"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

var (
	red   = color.NRGBA{255, 0, 0, 255}
	blue  = color.NRGBA{0, 0, 255, 255}
	white = color.NRGBA{255, 255, 255, 255}
	black = color.NRGBA{0, 0, 0, 255}
	clear = color.NRGBA{}
)

// solid is a w×h image of one color.
func solid(w, h int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// halves is a w×h image, red on its left half and blue on its right.
func halves(w, h int) *image.NRGBA {
	img := solid(w, h, red)
	for y := range h {
		for x := w / 2; x < w; x++ {
			img.SetNRGBA(x, y, blue)
		}
	}
	return img
}

func pngBinary(t *testing.T, img image.Image, name string) workflow.BinaryData {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return nodes.NewBinary(buf.Bytes(), name, "image/png")
}

func itemWith(bins map[string]workflow.BinaryData) workflow.Item {
	return workflow.Item{JSON: workflow.ObjectOf("id", 1), Binary: bins}
}

func run(t *testing.T, params m, items ...workflow.Item) ([]workflow.Item, error) {
	t.Helper()
	out, err := nodetest.Run(t, editimage.Type(), nodetest.Node{Parameters: params}, items)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// decodeOut decodes the output image of an item's data property.
func decodeOut(t *testing.T, it workflow.Item) (*image.NRGBA, string) {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(it.Binary["data"].Data)
	require.NoError(t, err)
	img, format, err := image.Decode(bytes.NewReader(raw))
	require.NoError(t, err)
	b := img.Bounds()
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := range b.Dy() {
		for x := range b.Dx() {
			out.Set(x, y, img.At(x+b.Min.X, y+b.Min.Y))
		}
	}
	return out, format
}

func near(a, b color.NRGBA, tol int) bool {
	d := func(x, y uint8) bool { v := int(x) - int(y); return v <= tol && v >= -tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B) && d(a.A, b.A)
}

type px struct {
	x, y int
	c    color.NRGBA
}

func TestOperations(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		input  *image.NRGBA
		params m
		w, h   int
		pixels []px
		tol    int
	}{
		{name: "blur softens the edge", input: halves(20, 4), params: m{"operation": "blur", "blur": 5, "sigma": 2},
			w: 20, h: 4, pixels: []px{{0, 1, red}, {19, 1, blue}}, tol: 3},
		{name: "border", input: solid(4, 3, white), params: m{"operation": "border", "borderWidth": 2, "borderHeight": 1, "borderColor": "#00ff00"},
			w: 8, h: 5, pixels: []px{{0, 0, color.NRGBA{0, 255, 0, 255}}, {1, 2, color.NRGBA{0, 255, 0, 255}}, {2, 1, white}, {5, 3, white}, {6, 3, color.NRGBA{0, 255, 0, 255}}}},
		{name: "crop", input: halves(10, 10), params: m{"operation": "crop", "width": 4, "height": 3, "positionX": 3, "positionY": 2},
			w: 4, h: 3, pixels: []px{{0, 0, red}, {1, 2, red}, {2, 0, blue}, {3, 2, blue}}},
		{name: "crop beyond the edge keeps the inside", input: solid(10, 10, red), params: m{"operation": "crop", "width": 500, "height": 500, "positionX": 6, "positionY": 8},
			w: 4, h: 2},
		{name: "draw rectangle", input: solid(10, 10, white), params: m{"operation": "draw", "primitive": "rectangle", "color": "#ff000000",
			"startPositionX": 2, "startPositionY": 3, "endPositionX": 5, "endPositionY": 6},
			w: 10, h: 10, pixels: []px{{2, 3, red}, {5, 6, red}, {1, 3, white}, {6, 6, white}, {3, 7, white}}},
		{name: "draw rounded rectangle", input: solid(20, 20, white), params: m{"operation": "draw", "primitive": "rectangle", "color": "#0000ff",
			"startPositionX": 0, "startPositionY": 0, "endPositionX": 19, "endPositionY": 19, "cornerRadius": 6},
			w: 20, h: 20, pixels: []px{{0, 0, white}, {19, 19, white}, {10, 0, blue}, {0, 10, blue}, {10, 10, blue}}},
		{name: "draw circle", input: solid(21, 21, white), params: m{"operation": "draw", "primitive": "circle", "color": "#ff0000",
			"startPositionX": 10, "startPositionY": 10, "endPositionX": 15, "endPositionY": 10},
			w: 21, h: 21, pixels: []px{{10, 10, red}, {15, 10, red}, {10, 5, red}, {17, 10, white}, {14, 14, white}}},
		{name: "draw line", input: solid(10, 10, white), params: m{"operation": "draw", "primitive": "line", "color": "#000000",
			"startPositionX": 0, "startPositionY": 0, "endPositionX": 9, "endPositionY": 9},
			w: 10, h: 10, pixels: []px{{0, 0, black}, {5, 5, black}, {9, 9, black}, {1, 0, white}, {0, 9, white}}},
		{name: "draw half transparent blends", input: solid(4, 4, white), params: m{"operation": "draw", "primitive": "rectangle", "color": "#00000080",
			"startPositionX": 0, "startPositionY": 0, "endPositionX": 3, "endPositionY": 3},
			w: 4, h: 4, pixels: []px{{1, 1, color.NRGBA{128, 128, 128, 255}}}, tol: 2},
		{name: "resize maximum area keeps the ratio", input: solid(40, 20, red), params: m{"operation": "resize", "width": 10, "height": 10},
			w: 14, h: 7},
		{name: "resize ignoring the ratio", input: halves(40, 20), params: m{"operation": "resize", "width": 10, "height": 30, "resizeOption": "ignoreAspectRatio"},
			w: 10, h: 30, pixels: []px{{0, 15, red}, {9, 15, blue}}, tol: 2},
		{name: "resize minimum area covers the box", input: solid(40, 20, red), params: m{"operation": "resize", "width": 10, "height": 10, "resizeOption": "minimumArea"},
			w: 20, h: 10},
		{name: "resize only if larger shrinks", input: solid(40, 20, red), params: m{"operation": "resize", "width": 20, "height": 20, "resizeOption": "onlyIfLarger"},
			w: 20, h: 10},
		{name: "resize only if larger leaves a small image", input: solid(10, 5, red), params: m{"operation": "resize", "width": 20, "height": 20, "resizeOption": "onlyIfLarger"},
			w: 10, h: 5},
		{name: "resize only if smaller grows", input: solid(10, 5, red), params: m{"operation": "resize", "width": 40, "height": 40, "resizeOption": "onlyIfSmaller"},
			w: 40, h: 20},
		{name: "resize only if smaller leaves a large image", input: solid(40, 20, red), params: m{"operation": "resize", "width": 10, "height": 10, "resizeOption": "onlyIfSmaller"},
			w: 40, h: 20},
		{name: "resize percent", input: solid(40, 20, red), params: m{"operation": "resize", "width": 50, "height": 200, "resizeOption": "percent"},
			w: 20, h: 40, pixels: []px{{10, 20, red}}, tol: 1},
		{name: "rotate 90 turns clockwise", input: halves(4, 2), params: m{"operation": "rotate", "rotate": 90},
			w: 2, h: 4, pixels: []px{{0, 0, red}, {1, 1, red}, {0, 3, blue}, {1, 2, blue}}},
		{name: "rotate 45 fills the corners", input: solid(10, 10, red), params: m{"operation": "rotate", "rotate": 45, "backgroundColor": "#00ff00"},
			w: 14, h: 14, pixels: []px{{0, 0, color.NRGBA{0, 255, 0, 255}}, {7, 7, red}}, tol: 2},
		{name: "shear along x", input: solid(10, 10, red), params: m{"operation": "shear", "degreesX": 45, "degreesY": 0},
			w: 20, h: 10, pixels: []px{{0, 0, red}, {19, 0, clear}, {0, 9, clear}, {18, 9, red}}},
		{name: "shear along y", input: solid(10, 10, red), params: m{"operation": "shear", "degreesX": 0, "degreesY": 45},
			w: 10, h: 20, pixels: []px{{0, 0, red}, {9, 0, clear}, {0, 19, clear}, {9, 18, red}}},
		{name: "transparent", input: halves(4, 2), params: m{"operation": "transparent", "color": "#ff0000"},
			w: 4, h: 2, pixels: []px{{0, 0, color.NRGBA{255, 0, 0, 0}}, {3, 1, blue}}},
		{name: "create", params: m{"operation": "create", "width": 6, "height": 3, "backgroundColor": "#0000ff"},
			w: 6, h: 3, pixels: []px{{0, 0, blue}, {5, 2, blue}}},
		{name: "create keeps GraphicsMagick's opacity byte", params: m{"operation": "create", "width": 2, "height": 2, "backgroundColor": "#ffffffff"},
			w: 2, h: 2, pixels: []px{{0, 0, color.NRGBA{255, 255, 255, 0}}}},
		{name: "multi step", input: solid(10, 10, red), params: m{"operation": "multiStep", "operations": m{"operations": []any{
			m{"operation": "resize", "width": 50, "height": 50, "resizeOption": "percent"},
			m{"operation": "border", "borderWidth": 1, "borderHeight": 1, "borderColor": "#0000ff"},
			m{"operation": "draw", "primitive": "line", "color": "#000000", "startPositionX": 1, "startPositionY": 1, "endPositionX": 5, "endPositionY": 1},
		}}}, w: 7, h: 7, pixels: []px{{0, 0, blue}, {3, 1, black}, {3, 3, red}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			item := workflow.Item{JSON: workflow.ObjectOf("id", 1)}
			if tc.input != nil {
				item = itemWith(map[string]workflow.BinaryData{"data": pngBinary(t, tc.input, "in.png")})
			}
			out, err := run(t, tc.params, item)
			require.NoError(t, err)
			require.Len(t, out, 1)
			require.Equal(t, []string{"id"}, out[0].JSON.Keys())
			img, format := decodeOut(t, out[0])
			require.Equal(t, "png", format)
			require.Equal(t, tc.w, img.Rect.Dx(), "width")
			require.Equal(t, tc.h, img.Rect.Dy(), "height")
			for _, p := range tc.pixels {
				got := img.NRGBAAt(p.x, p.y)
				if p.c.A == 0 && got.A == 0 {
					continue
				}
				require.True(t, near(got, p.c, tc.tol), "pixel %d,%d: want %v got %v", p.x, p.y, p.c, got)
			}
			if tc.name == "blur softens the edge" {
				mid := img.NRGBAAt(10, 1)
				require.True(t, mid.R > 20 && mid.B > 20, "the edge is mixed: %v", mid)
			}
		})
	}
}

func TestText(t *testing.T) {
	t.Parallel()
	item := itemWith(map[string]workflow.BinaryData{"data": pngBinary(t, solid(120, 60, white), "in.png")})
	count := func(img *image.NRGBA, r image.Rectangle) int {
		n := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if c := img.NRGBAAt(x, y); c.R > 128 && c.G < 100 {
					n++
				}
			}
		}
		return n
	}
	out, err := run(t, m{"operation": "text", "text": "Hello world", "fontSize": 16, "fontColor": "#ff0000",
		"positionX": 5, "positionY": 20, "lineLength": 11}, item)
	require.NoError(t, err)
	img, _ := decodeOut(t, out[0])
	require.Equal(t, image.Rect(0, 0, 120, 60), img.Rect)
	// The text is wrapped: red pixels above the first baseline and on the second line, none
	// left of the position.
	require.Positive(t, count(img, image.Rect(5, 5, 120, 21)))
	require.Positive(t, count(img, image.Rect(5, 25, 120, 40)))
	require.Zero(t, count(img, image.Rect(0, 0, 4, 60)))
	require.Zero(t, count(img, image.Rect(0, 45, 120, 60)))

	// A bundled font by name, through the options.
	out, err = run(t, m{"operation": "text", "text": "Mono", "fontColor": "#ff0000", "options": m{"font": "Go Mono Bold"}}, item)
	require.NoError(t, err)
	img, _ = decodeOut(t, out[0])
	require.Positive(t, count(img, image.Rect(50, 30, 120, 51)))

	// A font file of the machine n8n ran on is replaced by the default font.
	out, err = run(t, m{"operation": "text", "text": "x", "fontColor": "#ff0000", "options": m{"font": "/usr/share/fonts/Arial.ttf"}}, item)
	require.NoError(t, err)
	img, _ = decodeOut(t, out[0])
	require.Positive(t, count(img, image.Rect(50, 30, 70, 51)))
	_, err = run(t, m{"operation": "text", "text": "x", "options": m{"font": "Comic Sans"}}, item)
	require.Contains(t, nodetest.NodeError(t, err).Message, `The font "Comic Sans" is not available; the fonts are: default, Go Regular`)

	// In a multi-step run each text step names its font.
	out, err = run(t, m{"operation": "multiStep", "operations": m{"operations": []any{
		m{"operation": "text", "text": "Hi", "font": "Go Bold", "fontColor": "#ff0000", "positionX": 2, "positionY": 15},
	}}}, item)
	require.NoError(t, err)
	img, _ = decodeOut(t, out[0])
	require.Positive(t, count(img, image.Rect(2, 0, 30, 16)))
}

func TestComposite(t *testing.T) {
	t.Parallel()
	base := pngBinary(t, solid(10, 10, white), "base.png")
	top := pngBinary(t, solid(4, 4, blue), "top.png")
	half := pngBinary(t, solid(4, 4, color.NRGBA{255, 0, 0, 128}), "half.png")
	cases := []struct {
		operator string
		top      workflow.BinaryData
		inside   color.NRGBA
		tol      int
	}{
		{"Over", top, blue, 0},
		{"Over", half, color.NRGBA{255, 127, 127, 255}, 2},
		{"Copy", half, color.NRGBA{255, 0, 0, 128}, 1},
		{"Multiply", top, blue, 0},
		{"Plus", top, white, 0},
		{"Minus", top, black, 0},
		{"Difference", top, color.NRGBA{255, 255, 0, 255}, 0},
		{"CopyRed", top, color.NRGBA{0, 255, 255, 255}, 0},
		{"CopyOpacity", pngBinary(t, solid(4, 4, black), "k.png"), color.NRGBA{255, 255, 255, 0}, 0},
		{"In", top, blue, 0},
		{"Out", top, color.NRGBA{0, 0, 255, 0}, 0},
		{"Bumpmap", top, color.NRGBA{29, 29, 29, 255}, 1},
	}
	for _, tc := range cases {
		out, err := run(t, m{"operation": "composite", "dataPropertyNameComposite": "top", "operator": tc.operator, "positionX": 3, "positionY": 2},
			itemWith(map[string]workflow.BinaryData{"data": base, "top": tc.top}))
		require.NoError(t, err, tc.operator)
		img, _ := decodeOut(t, out[0])
		require.Equal(t, image.Rect(0, 0, 10, 10), img.Rect)
		got := img.NRGBAAt(4, 3)
		if tc.inside.A == 0 {
			require.Zero(t, got.A, tc.operator)
		} else {
			require.True(t, near(got, tc.inside, tc.tol), "%s: want %v got %v", tc.operator, tc.inside, got)
		}
		require.Equal(t, white, img.NRGBAAt(1, 1), tc.operator)
		require.Equal(t, white, img.NRGBAAt(8, 8), tc.operator)
		// The composite image stays on the item.
		require.Contains(t, out[0].Binary, "top")
	}

	_, err := run(t, m{"operation": "composite", "dataPropertyNameComposite": "top", "operator": "CopyBlack"},
		itemWith(map[string]workflow.BinaryData{"data": base, "top": top}))
	require.Contains(t, nodetest.NodeError(t, err).Message, `"CopyBlack" needs a CMYK image`)
	_, err = run(t, m{"operation": "composite", "dataPropertyNameComposite": "nope"},
		itemWith(map[string]workflow.BinaryData{"data": base}))
	require.Equal(t, `Item does not contain any binary data with the name "nope".`, nodetest.NodeError(t, err).Message)
}

func TestCreateThenComposite(t *testing.T) {
	t.Parallel()
	// A multi-step run may start from a new image and put the item's image on it.
	item := itemWith(map[string]workflow.BinaryData{"logo": pngBinary(t, solid(2, 2, red), "logo.png")})
	out, err := run(t, m{"operation": "multiStep", "options": m{"fileName": "card.png"}, "operations": m{"operations": []any{
		m{"operation": "create", "width": 6, "height": 4, "backgroundColor": "#0000ff"},
		m{"operation": "composite", "dataPropertyNameComposite": "logo", "positionX": 4, "positionY": 2},
	}}}, item)
	require.NoError(t, err)
	img, format := decodeOut(t, out[0])
	require.Equal(t, "png", format)
	require.Equal(t, image.Rect(0, 0, 6, 4), img.Rect)
	require.Equal(t, blue, img.NRGBAAt(3, 3))
	require.Equal(t, red, img.NRGBAAt(5, 3))
	require.Equal(t, "card.png", out[0].Binary["data"].FileName)
	require.Contains(t, out[0].Binary, "logo")
}

func TestInformation(t *testing.T) {
	t.Parallel()
	bin := pngBinary(t, solid(30, 20, red), "in.png")
	out, err := run(t, m{"operation": "information"}, itemWith(map[string]workflow.BinaryData{"data": bin}))
	require.NoError(t, err)
	info := out[0].JSON
	require.Equal(t, []string{"Format", "format", "Geometry", "size", "Class", "Type", "Depth", "depth", "Filesize", "filesize",
		"Interlace", "Orientation", "Page geometry", "Compression"}, info.Keys())
	require.Equal(t, "PNG (Portable Network Graphics)", info.Get("Format"))
	require.Equal(t, "PNG", info.Get("format"))
	require.Equal(t, "30x20", info.Get("Geometry"))
	require.Equal(t, m{"width": 30, "height": 20}, info.Get("size").(*workflow.Object).ToMap())
	require.Equal(t, "true color", info.Get("Type"))
	require.Equal(t, 8, info.Get("depth"))
	// The image is passed on unchanged.
	require.Equal(t, bin, out[0].Binary["data"])

	// A transparent palette image.
	pal := image.NewPaletted(image.Rect(0, 0, 3, 3), color.Palette{clear, red, blue})
	var buf bytes.Buffer
	require.NoError(t, gif.Encode(&buf, pal, nil))
	out, err = run(t, m{"operation": "information"}, itemWith(map[string]workflow.BinaryData{"data": nodes.NewBinary(buf.Bytes(), "a.gif", "")}))
	require.NoError(t, err)
	info = out[0].JSON
	require.Equal(t, "GIF", info.Get("format"))
	require.Equal(t, "PseudoClass", info.Get("Class"))
	require.Equal(t, "palette with transparency", info.Get("Type"))
	require.Equal(t, 4, info.Get("color")) // GIF pads its palette to a power of two

	// An image too large to decode is described from its header.
	out, err = run(t, m{"operation": "information"}, itemWith(map[string]workflow.BinaryData{"data": nodes.NewBinary(pngHeader(100000, 100000), "big.png", "")}))
	require.NoError(t, err)
	require.Equal(t, "100000x100000", out[0].JSON.Get("Geometry"))
	require.Equal(t, "true color", out[0].JSON.Get("Type"))
}

func TestFormatsAndMetadata(t *testing.T) {
	t.Parallel()
	bin := pngBinary(t, solid(8, 8, red), "photo.png")
	for _, tc := range []struct {
		format, mime, ext, decoded string
	}{
		{"jpeg", "image/jpeg", "jpg", "jpeg"},
		{"png", "image/png", "png", "png"},
		{"gif", "image/gif", "gif", "gif"},
		{"bmp", "image/bmp", "bmp", "bmp"},
		{"tiff", "image/tiff", "tif", "tiff"},
	} {
		out, err := run(t, m{"operation": "blur", "options": m{"format": tc.format, "quality": 80}},
			itemWith(map[string]workflow.BinaryData{"data": bin}))
		require.NoError(t, err, tc.format)
		b := out[0].Binary["data"]
		require.Equal(t, tc.mime, b.MimeType)
		require.Equal(t, tc.ext, b.FileExtension)
		require.Equal(t, "photo."+tc.format, b.FileName)
		require.Equal(t, "image", b.FileType)
		require.NotEmpty(t, b.FileSize)
		img, format := decodeOut(t, out[0])
		require.Equal(t, tc.decoded, format)
		require.True(t, near(img.NRGBAAt(4, 4), red, 8), "%s: %v", tc.format, img.NRGBAAt(4, 4))
	}

	out, err := run(t, m{"operation": "border", "options": m{"fileName": "framed.png"}},
		itemWith(map[string]workflow.BinaryData{"data": bin}))
	require.NoError(t, err)
	require.Equal(t, "framed.png", out[0].Binary["data"].FileName)

	_, err = run(t, m{"operation": "blur", "options": m{"format": "webp"}}, itemWith(map[string]workflow.BinaryData{"data": bin}))
	require.Contains(t, nodetest.NodeError(t, err).Message, `"webp" can not be written`)

	// Create writes PNG by default.
	out, err = run(t, m{"operation": "create"}, workflow.Item{JSON: workflow.NewObject(0)})
	require.NoError(t, err)
	require.Equal(t, "image/png", out[0].Binary["data"].MimeType)
}

// pngHeader is a PNG with only a header that declares w×h pixels.
func pngHeader(w, h uint32) []byte {
	var buf bytes.Buffer
	buf.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	chunk := append([]byte("IHDR"), ihdr...)
	_ = binary.Write(&buf, binary.BigEndian, uint32(len(ihdr)))
	buf.Write(chunk)
	_ = binary.Write(&buf, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return buf.Bytes()
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	withData := func(b []byte) workflow.Item {
		return itemWith(map[string]workflow.BinaryData{"data": nodes.NewBinary(b, "x.png", "image/png")})
	}
	_, err := run(t, m{"operation": "blur"}, withData([]byte("not an image at all")))
	require.Contains(t, nodetest.NodeError(t, err).Message, "not an image this node can read")

	// A tiny file declaring a huge canvas fails before decoding.
	_, err = run(t, m{"operation": "blur"}, withData(pngHeader(100000, 100000)))
	ne := nodetest.NodeError(t, err)
	require.Contains(t, ne.Message, "The image is 100000x100000 pixels, more than the")
	require.Contains(t, ne.Message, "FLOWMILL_UNPACK_MAX_SIZE")
	require.Equal(t, 0, ne.ItemIndex)

	// Truncated image data.
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, solid(20, 20, red)))
	_, err = run(t, m{"operation": "blur"}, withData(buf.Bytes()[:60]))
	require.Contains(t, nodetest.NodeError(t, err).Message, "could not be decoded")

	// Results past the limit fail too.
	small := withData(buf.Bytes())
	_, err = run(t, m{"operation": "resize", "width": 1e6, "height": 1e6, "resizeOption": "ignoreAspectRatio"}, small)
	require.Contains(t, nodetest.NodeError(t, err).Message, "The image is 1000000x1000000 pixels")
	_, err = run(t, m{"operation": "create", "width": 1e6, "height": 1e6}, workflow.Item{JSON: workflow.NewObject(0)})
	require.Contains(t, nodetest.NodeError(t, err).Message, "pixels, more than the")

	_, err = run(t, m{"operation": "blur"}, workflow.Item{JSON: workflow.NewObject(0)})
	require.Equal(t, "Item does not contain any binary data.", nodetest.NodeError(t, err).Message)
	_, err = run(t, m{"operation": "blur", "dataPropertyName": "img"}, small)
	require.Equal(t, `Item does not contain any binary data with the name "img".`, nodetest.NodeError(t, err).Message)
	_, err = run(t, m{"operation": "draw", "color": "#zzz"}, small)
	require.Contains(t, nodetest.NodeError(t, err).Message, `invalid color "#zzz"`)
	_, err = run(t, m{"operation": "crop", "positionX": 50, "positionY": 50}, small)
	require.Equal(t, "The crop area lies outside the image", nodetest.NodeError(t, err).Message)
	_, err = run(t, m{"operation": "text", "text": "x", "fontSize": 1e6}, small)
	require.Equal(t, "The font size 1e+06 is too large", nodetest.NodeError(t, err).Message)
	out, err := run(t, m{"operation": "blur", "sigma": 1e12}, small)
	require.NoError(t, err)
	img, _ := decodeOut(t, out[0])
	require.Equal(t, 20, img.Rect.Dx())
	_, err = run(t, m{"operation": "shear", "degreesX": 90}, small)
	require.Contains(t, nodetest.NodeError(t, err).Message, "too close to 90 degrees")

	// With continueOnFail the error is the item's and the other items go on.
	outs, err := nodetest.Run(t, editimage.Type(), nodetest.Node{ContinueOnFail: true, Parameters: m{"operation": "blur"}},
		[]workflow.Item{withData([]byte("junk")), small})
	require.NoError(t, err)
	require.Len(t, outs[0], 2)
	require.Contains(t, outs[0][0].JSON.Get("error"), "not an image")
	require.Equal(t, 0, (*outs[0][0].PairedItem)[0].Item)
	require.Contains(t, outs[0][1].Binary, "data")
}
