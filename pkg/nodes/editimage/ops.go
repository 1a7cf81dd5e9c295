package editimage

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/kovidgoyal/imaging"

	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// step is one operation with its parameters.
type step map[string]any

// defaults are the parameters' defaults, for multi-step entries that leave some out.
var defaults = map[string]map[string]any{
	"blur":        {"blur": 5.0, "sigma": 2.0},
	"border":      {"borderColor": "#000000", "borderWidth": 10.0, "borderHeight": 10.0},
	"create":      {"backgroundColor": "#ffffff00", "width": 50.0, "height": 50.0},
	"crop":        {"width": 500.0, "height": 500.0, "positionX": 0.0, "positionY": 0.0},
	"composite":   {"dataPropertyNameComposite": "", "operator": "Over", "positionX": 0.0, "positionY": 0.0},
	"draw":        {"color": "#ff000000", "cornerRadius": 0.0, "endPositionX": 250.0, "endPositionY": 250.0, "primitive": "rectangle", "startPositionX": 50.0, "startPositionY": 50.0},
	"information": {},
	"resize":      {"width": 500.0, "height": 500.0, "resizeOption": "maximumArea"},
	"rotate":      {"backgroundColor": "#ffffffff", "rotate": 0.0},
	"shear":       {"degreesX": 0.0, "degreesY": 0.0},
	"text":        {"font": "default", "fontColor": "#000000", "fontSize": 18.0, "lineLength": 80.0, "positionX": 50.0, "positionY": 50.0, "text": ""},
	"transparent": {"color": "#ff0000"},
}

func (s step) op() string {
	v, _ := s["operation"].(string)
	return v
}

func (s step) value(key string) any {
	if v, ok := s[key]; ok && v != nil {
		return v
	}
	return defaults[s.op()][key]
}

// num reads a number parameter; what is not a finite number counts as 0.
func (s step) num(key string) float64 {
	f, _ := workflow.Number(s.value(key))
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

func (s step) int(key string) int { return int(math.Round(s.num(key))) }

func (s step) str(key string) string {
	switch v := s.value(key).(type) {
	case string:
		return v
	case nil:
		return ""
	default:
		return jsv.ToString(v)
	}
}

func (s step) color(key string) (color.NRGBA, error) { return parseColor(s.str(key)) }

// blur blurs with GraphicsMagick's sigma; its radius only bounds the kernel there, which a
// Gaussian of that sigma already does here.
func blur(img *image.NRGBA, radius, sigma float64) *image.NRGBA {
	if sigma <= 0 {
		sigma = radius / 2
	}
	if sigma <= 0 {
		return img
	}
	// Past the image's size a larger kernel changes nothing but the memory it takes.
	b := img.Bounds()
	return imaging.Blur(img, math.Min(sigma, float64(max(b.Dx(), b.Dy()))))
}

// border surrounds the image with w columns and h rows of c on each side.
func border(img *image.NRGBA, w, h int, c color.NRGBA) *image.NRGBA {
	b := img.Bounds()
	out := imaging.New(b.Dx()+2*w, b.Dy()+2*h, c)
	draw.Draw(out, b.Add(image.Pt(w, h)), img, b.Min, draw.Src)
	return out
}

// crop cuts w×h from x,y; the part outside the image is dropped, as GraphicsMagick does.
func crop(img *image.NRGBA, w, h, x, y int) (*image.NRGBA, bool) {
	r := image.Rect(x, y, x+w, y+h).Intersect(img.Bounds())
	if r.Empty() {
		return nil, false
	}
	return imaging.Crop(img, r), true
}

// resizeTo returns the size resizing w0×h0 with GraphicsMagick's geometry flags gives.
func resizeTo(w0, h0 int, w, h float64, option string) (int, int) {
	fw, fh := float64(w0), float64(h0)
	fit := func(scale float64) (int, int) {
		return max(1, int(math.Round(fw*scale))), max(1, int(math.Round(fh*scale)))
	}
	// A missing side (0) does not constrain.
	if w <= 0 && h <= 0 {
		return w0, h0
	}
	sx, sy := w/fw, h/fh
	if w <= 0 {
		sx = sy
	}
	if h <= 0 {
		sy = sx
	}
	switch option {
	case "ignoreAspectRatio":
		nw, nh := int(math.Round(w)), int(math.Round(h))
		if w <= 0 {
			nw = w0
		}
		if h <= 0 {
			nh = h0
		}
		return max(1, nw), max(1, nh)
	case "percent":
		pw, ph := w, h
		if w <= 0 {
			pw = ph
		}
		if h <= 0 {
			ph = pw
		}
		return max(1, int(math.Round(fw*pw/100))), max(1, int(math.Round(fh*ph/100)))
	case "minimumArea":
		return fit(math.Max(sx, sy))
	case "onlyIfLarger":
		if w0 > int(w) && w > 0 || h0 > int(h) && h > 0 {
			return fit(math.Min(sx, sy))
		}
		return w0, h0
	case "onlyIfSmaller":
		if w0 < int(w) || h0 < int(h) {
			return fit(math.Min(sx, sy))
		}
		return w0, h0
	default: // maximumArea: width×height is the most pixels the result has
		area := w * h
		if w <= 0 || h <= 0 {
			area = math.Max(w, h) * math.Max(w, h)
		}
		return fit(math.Sqrt(area / (fw * fh)))
	}
}

func resize(img *image.NRGBA, w, h int) *image.NRGBA {
	if b := img.Bounds(); b.Dx() == w && b.Dy() == h {
		return img
	}
	return toNRGBA(imaging.Resize(img, w, h, imaging.Lanczos))
}

// rotate turns the image clockwise by deg, as GraphicsMagick does; the canvas grows to hold it
// and the uncovered corners get bg.
func rotate(img *image.NRGBA, deg float64, bg color.NRGBA) *image.NRGBA {
	return toNRGBA(imaging.Rotate(img, -deg, bg))
}

// rotatedSize bounds the canvas a rotation by deg needs.
func rotatedSize(w, h int, deg float64) (int, int) {
	s, c := math.Sincos(deg * math.Pi / 180)
	s, c = math.Abs(s), math.Abs(c)
	return int(math.Ceil(float64(w)*c + float64(h)*s)), int(math.Ceil(float64(w)*s + float64(h)*c))
}

// shearSize is the canvas a shear by the tangents tx and ty needs, with the offset of the
// top-left corner.
func shearSize(w, h int, tx, ty float64) (int, int, float64, float64) {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, p := range [][2]float64{{0, 0}, {float64(w), 0}, {0, float64(h)}, {float64(w), float64(h)}} {
		x := p[0] + tx*p[1]
		y := p[1] + ty*x
		minX, maxX = math.Min(minX, x), math.Max(maxX, x)
		minY, maxY = math.Min(minY, y), math.Max(maxY, y)
	}
	return int(math.Ceil(maxX - minX - 1e-9)), int(math.Ceil(maxY - minY - 1e-9)), minX, minY
}

// shear slants the image: first along X by the tangent tx (rows move), then along Y by ty
// (columns move); the canvas grows and uncovered parts are transparent, GraphicsMagick's
// background here.
func shear(img *image.NRGBA, tx, ty float64) *image.NRGBA {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	ow, oh, offX, offY := shearSize(w, h, tx, ty)
	out := image.NewNRGBA(image.Rect(0, 0, ow, oh))
	for Y := range oh {
		for X := range ow {
			x1 := float64(X) + 0.5 + offX
			y1 := float64(Y) + 0.5 + offY
			y := y1 - ty*x1
			x := x1 - tx*y
			sx, sy := int(math.Floor(x)), int(math.Floor(y))
			if sx < 0 || sy < 0 || sx >= w || sy >= h {
				continue
			}
			o := out.PixOffset(X, Y)
			s := img.PixOffset(sx+b.Min.X, sy+b.Min.Y)
			copy(out.Pix[o:o+4], img.Pix[s:s+4])
		}
	}
	return out
}

// transparent clears the alpha of every pixel of exactly the color c.
func transparent(img *image.NRGBA, c color.NRGBA) *image.NRGBA {
	out := imaging.Clone(img)
	for p := 0; p+3 < len(out.Pix); p += 4 {
		if out.Pix[p] == c.R && out.Pix[p+1] == c.G && out.Pix[p+2] == c.B {
			out.Pix[p+3] = 0
		}
	}
	return out
}

// blend paints c over the pixel at x,y.
func blend(img *image.NRGBA, x, y int, c color.NRGBA) {
	if !(image.Point{x, y}.In(img.Rect)) || c.A == 0 {
		return
	}
	o := img.PixOffset(x, y)
	if c.A == 255 {
		img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = c.R, c.G, c.B, 255
		return
	}
	sa := float64(c.A) / 255
	da := float64(img.Pix[o+3]) / 255
	oa := sa + da*(1-sa)
	mix := func(s, d uint8) uint8 {
		return uint8(math.Round((float64(s)*sa + float64(d)*da*(1-sa)) / oa))
	}
	img.Pix[o], img.Pix[o+1], img.Pix[o+2] = mix(c.R, img.Pix[o]), mix(c.G, img.Pix[o+1]), mix(c.B, img.Pix[o+2])
	img.Pix[o+3] = uint8(math.Round(oa * 255))
}

// drawLine draws a one pixel wide line, as GraphicsMagick's default stroke width.
func drawLine(img *image.NRGBA, x0, y0, x1, y1 int, c color.NRGBA) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	e := dx + dy
	for range max(dx, -dy) + 1 {
		blend(img, x0, y0, c)
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

// drawCircle fills the circle around cx,cy through px,py (GraphicsMagick's circle primitive).
func drawCircle(img *image.NRGBA, cx, cy, px, py int, c color.NRGBA) {
	r := math.Hypot(float64(px-cx), float64(py-cy))
	b := image.Rect(cx-int(r)-1, cy-int(r)-1, cx+int(r)+2, cy+int(r)+2).Intersect(img.Rect)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if math.Hypot(float64(x-cx), float64(y-cy)) <= r+0.5 {
				blend(img, x, y, c)
			}
		}
	}
}

// drawRectangle fills x0,y0–x1,y1 (both corners included), with corners rounded by radius.
func drawRectangle(img *image.NRGBA, x0, y0, x1, y1, radius int, c color.NRGBA) {
	x0, x1 = min(x0, x1), max(x0, x1)
	y0, y1 = min(y0, y1), max(y0, y1)
	radius = max(0, min(radius, (x1-x0)/2, (y1-y0)/2))
	b := image.Rect(x0, y0, x1+1, y1+1).Intersect(img.Rect)
	rf := float64(radius)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if radius > 0 {
				// Distance from the nearest corner's circle center, for pixels in a corner box.
				cx := min(max(x, x0+radius), x1-radius)
				cy := min(max(y, y0+radius), y1-radius)
				if (cx != x || cy != y) && math.Hypot(float64(x-cx), float64(y-cy)) > rf+0.5 {
					continue
				}
			}
			blend(img, x, y, c)
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}
