package editimage

import (
	"fmt"
	"image"
	"math"

	"github.com/kovidgoyal/imaging"
)

// channelOps are GraphicsMagick's per-channel composite operators, on values 0–1 (s: the image
// put on top, d: the image below). Their result is blended by the top image's alpha.
var channelOps = map[string]func(s, d float64) float64{
	"Plus":       func(s, d float64) float64 { return math.Min(1, s+d) },
	"Add":        func(s, d float64) float64 { return wrap(s + d) },
	"Minus":      func(s, d float64) float64 { return math.Max(0, s-d) },
	"Subtract":   func(s, d float64) float64 { return wrap(s - d) },
	"Difference": func(s, d float64) float64 { return math.Abs(s - d) },
	"Multiply":   func(s, d float64) float64 { return s * d },
	"Divide": func(s, d float64) float64 {
		if s == 0 {
			return 1
		}
		return math.Min(1, d/s)
	},
}

// wrap keeps a channel value in 0–1 by wrapping around, as 8-bit arithmetic modulo 256 does.
func wrap(v float64) float64 {
	v8 := math.Mod(math.Round(v*255), 256)
	if v8 < 0 {
		v8 += 256
	}
	return v8 / 255
}

// unsupportedOperators are those that need channels an RGB image has not.
var unsupportedOperators = map[string]bool{"CopyBlack": true}

// composite puts top onto base at x,y with the operator; the result has base's size.
func composite(base, top *image.NRGBA, x, y int, operator string) (*image.NRGBA, error) {
	if unsupportedOperators[operator] {
		return nil, fmt.Errorf("The operator %q needs a CMYK image and is not supported", operator)
	}
	// Copy Cyan, Magenta and Yellow act on the red, green and blue channels of an RGB image.
	switch operator {
	case "CopyCyan":
		operator = "CopyRed"
	case "CopyMagenta":
		operator = "CopyGreen"
	case "CopyYellow":
		operator = "CopyBlue"
	}
	f, isChannelOp := channelOps[operator]
	switch operator {
	case "Over", "Copy", "In", "Out", "Atop", "Xor", "CopyRed", "CopyGreen", "CopyBlue", "CopyOpacity", "Bumpmap":
	default:
		if !isChannelOp {
			return nil, fmt.Errorf("The operator %q is not supported", operator)
		}
	}
	out := imaging.Clone(base)
	topOpaque := imaging.IsOpaque(top)
	r := top.Bounds().Add(image.Pt(x, y)).Intersect(out.Bounds())
	for py := r.Min.Y; py < r.Max.Y; py++ {
		for px := r.Min.X; px < r.Max.X; px++ {
			so := top.PixOffset(px-x, py-y)
			do := out.PixOffset(px, py)
			s, d := top.Pix[so:so+4], out.Pix[do:do+4]
			var sc, dc [3]float64
			for k := range 3 {
				sc[k], dc[k] = float64(s[k])/255, float64(d[k])/255
			}
			sa, da := float64(s[3])/255, float64(d[3])/255
			var oc [3]float64
			var oa float64
			switch operator {
			case "Over":
				oa = sa + da*(1-sa)
				for k := range 3 {
					oc[k] = safeDiv(sc[k]*sa+dc[k]*da*(1-sa), oa)
				}
			case "Copy":
				oc, oa = sc, sa
			case "In":
				oc, oa = sc, sa*da
			case "Out":
				oc, oa = sc, sa*(1-da)
			case "Atop":
				oa = da
				for k := range 3 {
					oc[k] = sc[k]*sa + dc[k]*(1-sa)
				}
			case "Xor":
				oa = sa*(1-da) + da*(1-sa)
				for k := range 3 {
					oc[k] = safeDiv(sc[k]*sa*(1-da)+dc[k]*da*(1-sa), oa)
				}
			case "CopyRed", "CopyGreen", "CopyBlue":
				oc, oa = dc, da
				k := map[string]int{"CopyRed": 0, "CopyGreen": 1, "CopyBlue": 2}[operator]
				oc[k] = sc[k]
			case "CopyOpacity":
				// An image without transparency gives its intensity as the opacity.
				oc, oa = dc, sa
				if topOpaque {
					oa = intensity(sc)
				}
			case "Bumpmap":
				oa = da
				in := intensity(sc)
				for k := range 3 {
					oc[k] = dc[k] * in
				}
			default:
				oa = da
				for k := range 3 {
					oc[k] = f(sc[k], dc[k])*sa + dc[k]*(1-sa)
				}
			}
			for k := range 3 {
				d[k] = to8(oc[k])
			}
			d[3] = to8(oa)
		}
	}
	return out, nil
}

func intensity(c [3]float64) float64 { return 0.299*c[0] + 0.587*c[1] + 0.114*c[2] }

func safeDiv(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func to8(v float64) uint8 { return uint8(math.Round(math.Max(0, math.Min(1, v)) * 255)) }
