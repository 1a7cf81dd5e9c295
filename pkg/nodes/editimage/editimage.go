// Package editimage is the Edit Image node: it blurs, borders, composites, creates, crops, draws
// on, resizes, rotates, shears, writes text on and makes a color transparent in images, one
// operation or several in a row, and reports an image's format and size. n8n runs
// GraphicsMagick; this node does the same operations in Go, so images never reach an external
// program. Images whose declared size passes the pixel limit fail before they are decoded.
package editimage

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"image"
	"math"
	"strings"

	"github.com/kovidgoyal/imaging"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.LoadOptions = map[string]nodes.LoadOptionsFunc{"getFonts": getFonts}
	return t
}

// required are the parameters each operation reads when it is the node's only one.
var required = map[string][]string{
	"blur":        {"blur", "sigma"},
	"border":      {"borderColor", "borderWidth", "borderHeight"},
	"create":      {"backgroundColor", "height", "width"},
	"crop":        {"height", "positionX", "positionY", "width"},
	"composite":   {"dataPropertyNameComposite", "operator", "positionX", "positionY"},
	"draw":        {"color", "cornerRadius", "endPositionX", "endPositionY", "primitive", "startPositionX", "startPositionY"},
	"information": {},
	"resize":      {"height", "resizeOption", "width"},
	"rotate":      {"backgroundColor", "rotate"},
	"shear":       {"degreesX", "degreesY"},
	"text":        {"font", "fontColor", "fontSize", "lineLength", "positionX", "positionY", "text"},
	"transparent": {"color"},
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res, err := editItem(ctx, ex, item, i)
		if err != nil {
			if ctx.Err() != nil || !ex.ContinueOnFail() {
				return nil, err
			}
			res = workflow.Item{JSON: workflow.ObjectOf("error", err.Error())}
		}
		res.PairedItem = &workflow.PairedItems{{Item: i}}
		out = append(out, res)
	}
	return [][]workflow.Item{out}, nil
}

// steps reads the operations to run on the item.
func steps(ex *nodes.Execution, operation string, i int) ([]step, error) {
	if operation == "multiStep" {
		list, err := ex.ParamList("operations.operations", i)
		if err != nil {
			return nil, err
		}
		if len(list) == 0 {
			return nil, nodes.Errorf(i, "No operations are set; add at least one under Operations")
		}
		out := make([]step, len(list))
		for k, m := range list {
			out[k] = step(m)
			if _, known := required[out[k].op()]; !known || out[k].op() == "information" {
				return nil, nodes.Errorf(i, "The operation %q is not supported", out[k].op())
			}
		}
		return out, nil
	}
	names, known := required[operation]
	if !known {
		return nil, nodes.Errorf(i, "The operation %q is not supported", operation)
	}
	s := step{"operation": operation}
	for _, name := range names {
		v, err := ex.Param(name, i)
		if err != nil {
			return nil, err
		}
		if v != nil {
			s[name] = v
		}
	}
	return []step{s}, nil
}

func editItem(ctx context.Context, ex *nodes.Execution, item workflow.Item, i int) (workflow.Item, error) {
	operation, err := ex.ParamString("operation", i)
	if err != nil {
		return workflow.Item{}, err
	}
	prop, err := ex.ParamString("dataPropertyName", i)
	if err != nil {
		return workflow.Item{}, err
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return workflow.Item{}, err
	}
	list, err := steps(ex, operation, i)
	if err != nil {
		return workflow.Item{}, err
	}

	var cur *decoded
	if list[0].op() != "create" {
		// "create" makes a new image, so it needs no incoming data.
		if len(item.Binary) == 0 {
			return workflow.Item{}, nodes.Errorf(i, "Item does not contain any binary data.")
		}
		data, err := binaryOf(item, prop, i)
		if err != nil {
			return workflow.Item{}, err
		}
		if operation == "information" {
			// The image is passed on as it came.
			info, err := describe(ctx, ex, data, i)
			return workflow.Item{JSON: info, Binary: item.Binary}, err
		}
		if cur, err = decode(ctx, ex, data, i); err != nil {
			return workflow.Item{}, err
		}
	}

	json := item.JSON
	if json == nil {
		json = workflow.NewObject(0)
	}

	format := ""
	if cur != nil {
		format = cur.format
	}
	var img *image.NRGBA
	if cur != nil {
		img = cur.img
	}
	for _, s := range list {
		if err := ctx.Err(); err != nil {
			return workflow.Item{}, err
		}
		if s.op() == "create" && format == "" {
			format = "png"
		}
		if img, err = apply(ex, s, img, item, i); err != nil {
			return workflow.Item{}, err
		}
	}

	optFormat, hasFormat := options["format"].(string)
	if hasFormat {
		format = normalFormat(optFormat)
	} else if format == "webp" {
		// Without a WebP encoder, WebP images are written as PNG unless a format is chosen.
		format = "png"
	}
	quality := -1
	if q, ok := workflow.Number(options["quality"]); ok {
		quality = int(q)
	}
	data, err := encode(img, format, quality, i)
	if err != nil {
		return workflow.Item{}, err
	}

	binary := make(map[string]workflow.BinaryData, len(item.Binary)+1)
	for k, v := range item.Binary {
		binary[k] = v
	}
	b := binary[prop]
	if hasFormat && strings.Contains(b.FileName, ".") {
		b.FileName = b.FileName[:strings.LastIndex(b.FileName, ".")] + "." + optFormat
	}
	if name, ok := options["fileName"]; ok && name != nil {
		b.FileName = jsv.ToString(name)
	}
	fresh := nodes.NewBinary(data, "", formats[format].mime)
	b.ID = ""
	b.Data, b.MimeType, b.FileType, b.FileSize = fresh.Data, fresh.MimeType, fresh.FileType, fresh.FileSize
	b.FileExtension = formats[format].ext
	binary[prop] = b
	return workflow.Item{JSON: json, Binary: binary}, nil
}

// describe gives the information of an image; one too large to decode is described from its
// header.
func describe(ctx context.Context, ex *nodes.Execution, data []byte, i int) (*workflow.Object, error) {
	cfg, format, err := header(data, i)
	if err != nil {
		return nil, err
	}
	if checkSize(ex, cfg.Width, cfg.Height, i) != nil {
		return information(cfg, format, nil, len(data)), nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, nodes.Errorf(i, "The image could not be decoded: %v", err)
	}
	return information(cfg, format, src, len(data)), nil
}

// binaryOf reads an item's binary property.
func binaryOf(item workflow.Item, prop string, i int) ([]byte, error) {
	bin, ok := item.Binary[prop]
	if !ok {
		return nil, nodes.Errorf(i, "Item does not contain any binary data with the name %q.", prop)
	}
	data, err := nodes.BinaryBytes(bin)
	if err != nil {
		return nil, nodes.Errorf(i, "%v", err)
	}
	return data, nil
}

// apply runs one operation.
func apply(ex *nodes.Execution, s step, img *image.NRGBA, item workflow.Item, i int) (*image.NRGBA, error) {
	fail := func(err error) (*image.NRGBA, error) {
		var ne *nodes.Error
		if errors.As(err, &ne) {
			return nil, err
		}
		return nil, nodes.Errorf(i, "%s", err.Error())
	}
	if img == nil && s.op() != "create" {
		return nil, nodes.Errorf(i, "Item does not contain any binary data.")
	}
	switch s.op() {
	case "blur":
		return blur(img, s.num("blur"), s.num("sigma")), nil
	case "border":
		c, err := s.color("borderColor")
		if err != nil {
			return fail(err)
		}
		bw, bh := max(0, s.int("borderWidth")), max(0, s.int("borderHeight"))
		if err := checkSize(ex, img.Rect.Dx()+2*bw, img.Rect.Dy()+2*bh, i); err != nil {
			return nil, err
		}
		return border(img, bw, bh, c), nil
	case "composite":
		name := s.str("dataPropertyNameComposite")
		data, err := binaryOf(item, name, i)
		if err != nil {
			return nil, err
		}
		top, err := decode(context.Background(), ex, data, i)
		if err != nil {
			return nil, err
		}
		out, err := composite(img, top.img, s.int("positionX"), s.int("positionY"), s.str("operator"))
		if err != nil {
			return fail(err)
		}
		return out, nil
	case "create":
		c, err := s.color("backgroundColor")
		if err != nil {
			return fail(err)
		}
		w, h := s.int("width"), s.int("height")
		if err := checkSize(ex, w, h, i); err != nil {
			return nil, err
		}
		return imaging.New(w, h, c), nil
	case "crop":
		out, ok := crop(img, s.int("width"), s.int("height"), s.int("positionX"), s.int("positionY"))
		if !ok {
			return nil, nodes.Errorf(i, "The crop area lies outside the image")
		}
		return out, nil
	case "draw":
		c, err := s.color("color")
		if err != nil {
			return fail(err)
		}
		out := imaging.Clone(img)
		x0, y0, x1, y1 := s.int("startPositionX"), s.int("startPositionY"), s.int("endPositionX"), s.int("endPositionY")
		switch s.str("primitive") {
		case "line":
			drawLine(out, x0, y0, x1, y1, c)
		case "circle":
			drawCircle(out, x0, y0, x1, y1, c)
		case "rectangle":
			drawRectangle(out, x0, y0, x1, y1, s.int("cornerRadius"), c)
		default:
			return nil, nodes.Errorf(i, "The primitive %q is not supported", s.str("primitive"))
		}
		return out, nil
	case "resize":
		b := img.Bounds()
		w, h := resizeTo(b.Dx(), b.Dy(), s.num("width"), s.num("height"), s.str("resizeOption"))
		if err := checkSize(ex, w, h, i); err != nil {
			return nil, err
		}
		return resize(img, w, h), nil
	case "rotate":
		bg, err := s.color("backgroundColor")
		if err != nil {
			return fail(err)
		}
		deg := s.num("rotate")
		w, h := rotatedSize(img.Rect.Dx(), img.Rect.Dy(), deg)
		if err := checkSize(ex, w, h, i); err != nil {
			return nil, err
		}
		return rotate(img, deg, bg), nil
	case "shear":
		dx, dy := s.num("degreesX"), s.num("degreesY")
		for _, d := range []float64{dx, dy} {
			if r := math.Mod(math.Abs(d), 180); r > 89.9 && r < 90.1 {
				return nil, nodes.Errorf(i, "The shear angle %v is too close to 90 degrees", d)
			}
		}
		tx, ty := math.Tan(dx*math.Pi/180), math.Tan(dy*math.Pi/180)
		w, h, _, _ := shearSize(img.Rect.Dx(), img.Rect.Dy(), tx, ty)
		if err := checkSize(ex, w, h, i); err != nil {
			return nil, err
		}
		return shear(img, tx, ty), nil
	case "text":
		c, err := s.color("fontColor")
		if err != nil {
			return fail(err)
		}
		fontName := s.str("font")
		if f, err := ex.ParamString("options.font", i); err == nil && f != "" {
			fontName = f
		}
		f, err := fontByName(fontName)
		if err != nil {
			return fail(err)
		}
		// A glyph is drawn into a mask of about size² pixels first.
		if size := s.num("fontSize"); size*size > float64(maxPixels(ex)) {
			return nil, nodes.Errorf(i, "The font size %v is too large", size)
		}
		out := imaging.Clone(img)
		lines := wrapText(s.str("text"), max(1, s.int("lineLength")))
		if err := drawText(out, lines, f, s.num("fontSize"), s.int("positionX"), s.int("positionY"), c); err != nil {
			return fail(err)
		}
		return out, nil
	case "transparent":
		c, err := s.color("color")
		if err != nil {
			return fail(err)
		}
		return transparent(img, c), nil
	}
	return nil, nodes.Errorf(i, "The operation %q is not supported", s.op())
}
