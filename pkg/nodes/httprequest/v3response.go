package httprequest

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/url"
	"path"
	"regexp"
	"strings"

	"golang.org/x/net/html/charset"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// binaryContentTypes are the content types Autodetect returns as a file.
var binaryContentTypes = []string{
	"image/", "audio/", "video/", "application/octet-stream", "application/gzip", "application/zip",
	"application/vnd.rar", "application/epub+zip", "application/x-bzip", "application/x-bzip2",
	"application/x-cdf", "application/vnd.amazon.ebook", "application/msword",
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	"application/vnd.ms-fontobject", "application/vnd.oasis.opendocument.presentation", "application/pdf",
	"application/x-tar", "application/vnd.visio", "application/vnd.ms-excel",
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "application/x-7z-compressed",
}

// undefined stands for JavaScript's undefined in a body: a key holding it is left out.
type undefinedValue struct{}

var undefined = undefinedValue{}

// parsedBody is the body as the request helper hands it over: JSON parsed when the request
// asked for JSON and it is JSON, else the text.
func parsedBody(b []byte) any {
	if len(b) == 0 {
		return ""
	}
	if v, err := workflow.DecodeJSONValue(b); err == nil {
		return v
	}
	return string(b)
}

// charsetPattern finds the charset of a Content-Type.
var charsetPattern = regexp.MustCompile(`(?i)charset=([^;,\s]+)`)

// decodeText reads an answer as text in the charset its Content-Type names (UTF-8 without one).
func decodeText(b []byte, contentType string) string {
	if m := charsetPattern.FindStringSubmatch(contentType); m != nil {
		name := strings.ToLower(strings.Trim(m[1], `'"`))
		if name != "utf-8" && name != "utf8" {
			if enc, _ := charset.Lookup(name); enc != nil {
				if out, err := enc.NewDecoder().Bytes(b); err == nil {
					return string(out)
				}
			}
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// resolvedBody is the body pagination hands over for an answer read as a stream: JSON (or {}
// when it does not parse) for a JSON content type, else the text.
func resolvedBody(res *response) any {
	contentType := res.header.Get("Content-Type")
	text := decodeText(res.body, contentType)
	if strings.Contains(contentType, "application/json") {
		if v, err := workflow.DecodeJSONValue([]byte(text)); err == nil {
			return v
		}
		return workflow.NewObject(0)
	}
	return text
}

// responseItems turns one answer into output items as the Response options say.
func responseItems(ro responseOptions, res *response, req *request, paginated bool, in workflow.Item, i int) ([]workflow.Item, error) {
	contentType := res.header.Get("Content-Type")
	format := ro.format
	var body any
	switch {
	case format == "autodetect" && strings.Contains(contentType, "application/json"):
		format = "json"
		if paginated {
			body = resolvedBody(res)
			break
		}
		text := decodeText(res.body, contentType)
		if strings.TrimSpace(text) == "" {
			body = workflow.NewObject(0)
			break
		}
		v, err := workflow.DecodeJSONValue([]byte(text))
		if err != nil {
			if !ro.neverError {
				return nil, nodes.Errorf(i, "Invalid JSON in response body")
			}
			v = workflow.NewObject(0)
		}
		body = v
	case format == "autodetect" && isBinaryType(contentType):
		format = "file"
	case format == "autodetect":
		format = "text"
		body = decodeText(res.body, contentType)
		if !paginated && len(res.body) == 0 {
			body = undefined
		}
	case format == "file":
	case req.json:
		body = parsedBody(res.body)
	default:
		body = string(res.body)
	}
	paired := &workflow.PairedItems{{Item: i}}
	statusMessage := res.statusText
	switch format {
	case "file":
		item := workflow.Item{PairedItem: paired, Binary: map[string]workflow.BinaryData{}}
		for k, v := range in.Binary {
			item.Binary[k] = v
		}
		if ro.full {
			item.JSON = workflow.ObjectOf("headers", headerJSON(res.header), "statusCode", float64(res.status), "statusMessage", statusMessage)
		} else {
			item.JSON = in.JSON.Clone()
			if item.JSON == nil {
				item.JSON = workflow.NewObject(0)
			}
		}
		item.Binary[ro.outputField] = fileBinaryV3(res, ro.outputField)
		return []workflow.Item{item}, nil
	case "text":
		j := workflow.NewObject(4)
		if text := toText(body); text != undefined {
			j.Set(ro.outputField, text)
		}
		if ro.full {
			j.Set("headers", headerJSON(res.header))
			j.Set("statusCode", float64(res.status))
			j.Set("statusMessage", statusMessage)
		}
		return []workflow.Item{{JSON: j, PairedItem: paired}}, nil
	}
	if s, ok := body.(string); ok && format == "json" {
		if strings.TrimSpace(s) == "" {
			body = workflow.NewObject(0)
		} else {
			v, err := workflow.DecodeJSONValue([]byte(s))
			if err != nil {
				return nil, nodes.Errorf(i, "Response body is not valid JSON. Change \"Response Format\" to \"Text\"")
			}
			body = v
		}
	}
	if ro.full {
		return []workflow.Item{{JSON: workflow.ObjectOf("body", nullToEmpty(body), "headers", headerJSON(res.header),
			"statusCode", float64(res.status), "statusMessage", statusMessage), PairedItem: paired}}, nil
	}
	if list, ok := body.([]any); ok {
		out := make([]workflow.Item, 0, len(list))
		for _, e := range list {
			out = append(out, workflow.Item{JSON: asObject(e), PairedItem: &workflow.PairedItems{{Item: i}}})
		}
		return out, nil
	}
	return []workflow.Item{{JSON: asObject(body), PairedItem: paired}}, nil
}

func nullToEmpty(v any) any {
	if v == nil {
		return workflow.NewObject(0)
	}
	return v
}

// toText is a body as text: objects and lists as JSON, anything else unchanged.
func toText(v any) any {
	switch v.(type) {
	case *workflow.Object, map[string]any, []any:
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(v)
		return strings.TrimSuffix(b.String(), "\n")
	}
	return v
}

func isBinaryType(contentType string) bool {
	for _, t := range binaryContentTypes {
		if strings.Contains(contentType, t) {
			return true
		}
	}
	return false
}

// fileBinaryV3 stores an answer as binary data: named by its Content-Disposition or the last
// segment of the URL's path, typed by its Content-Type; without a name but with a known
// extension it is called after the output field.
func fileBinaryV3(res *response, field string) workflow.BinaryData {
	mimeType := strings.Split(strings.Split(res.header.Get("Content-Type"), " ")[0], ";")[0]
	name := ""
	if _, params, err := mime.ParseMediaType(res.header.Get("Content-Disposition")); err == nil {
		name = params["filename"]
	}
	if name == "" {
		if u, err := url.Parse(cmpOr(res.finalURL, res.url)); err == nil {
			name = path.Base(u.Path)
			if name == "/" || name == "." || strings.HasSuffix(u.Path, "/") {
				name = ""
			}
		}
	}
	b := nodes.NewBinary(res.body, name, mimeType)
	if name == "" && b.FileExtension != "" {
		b.FileName = field + "." + b.FileExtension
	}
	return b
}
