package webhook

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/flowmill/flowmill/pkg/nesting"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/wellformed"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Options are the node options that change how a request becomes an item.
type Options struct {
	// BinaryData stores the whole body as binary data under BinaryPropertyName ("data").
	BinaryData bool
	// BinaryPropertyName names the binary property; for multipart uploads it is a prefix
	// followed by the file's number, counted from 0.
	BinaryPropertyName string
	// RawBody also keeps the unparsed body as binary property "data".
	RawBody bool
	// UnparsedAsBinary (Webhook 2) keeps a body of a type that is not parsed (neither JSON,
	// XML, a form nor multipart) as a file under BinaryPropertyName ("data").
	UnparsedAsBinary bool
}

// OptionsFrom reads Options from the node's resolved "options" parameter.
func OptionsFrom(options map[string]any) Options {
	var o Options
	o.BinaryData, _ = options["binaryData"].(bool)
	o.RawBody, _ = options["rawBody"].(bool)
	o.BinaryPropertyName, _ = options["binaryPropertyName"].(string)
	return o
}

// RequestItem reads a request into the item the node outputs: json {headers, params, query,
// body}, with uploaded files, the raw body or the whole body as binary data as the options say.
// Header names are lower case; repeated query keys and form fields become lists; multipart
// fields are always lists. maxBody limits the bytes read (0: no limit).
func RequestItem(r *http.Request, params map[string]string, o Options, maxBody int64) (workflow.Item, error) {
	headers := map[string]any{}
	for k, v := range r.Header {
		headers[strings.ToLower(k)] = strings.Join(v, ", ")
	}
	if r.Host != "" {
		headers["host"] = r.Host
	}
	p := map[string]any{}
	for k, v := range params {
		p[k] = v
	}
	// Go does not keep the order headers came in: their names are sorted. Query and form
	// fields keep the order they were sent in.
	item := workflow.Item{JSON: workflow.ObjectOf(
		"headers", workflow.ObjectFromMap(headers),
		"params", workflow.ObjectFromMap(p),
		"query", formMap(r.URL.Query(), queryOrder(r.URL.RawQuery), false),
		"body", workflow.NewObject(0),
	)}
	var body io.Reader = r.Body
	if r.Body == nil {
		body = http.NoBody
	}
	if maxBody > 0 {
		body = io.LimitReader(body, maxBody)
	}
	contentType := r.Header.Get("Content-Type")
	if contentType == "" {
		contentType = "application/json"
	}
	mediaType, mtParams, _ := mime.ParseMediaType(contentType)
	if mediaType == "multipart/form-data" {
		return multipartItem(item, multipart.NewReader(body, mtParams["boundary"]), o)
	}
	raw, err := io.ReadAll(body)
	if err != nil {
		return item, fmt.Errorf("webhook: read body: %w", err)
	}
	if o.BinaryData {
		name := o.BinaryPropertyName
		if name == "" {
			name = "data"
		}
		item.Binary = map[string]workflow.BinaryData{name: nodes.NewBinary(raw, "", contentType)}
		return item, nil
	}
	switch {
	case mediaType == "application/json" || strings.HasSuffix(mediaType, "+json"):
		if len(bytes.TrimSpace(raw)) > 0 {
			if err := nesting.JSON(raw); err != nil {
				return item, fmt.Errorf("webhook: body is not accepted: %w", err)
			}
			if err := wellformed.UTF8JSON(raw); err != nil {
				return item, fmt.Errorf("webhook: body is not accepted: %w", err)
			}
			var v any
			if v, err = workflow.DecodeJSONValue(raw); err != nil {
				return item, fmt.Errorf("webhook: body is not valid JSON: %w", err)
			}
			item.JSON.Set("body", v)
		}
	case mediaType == "application/xml" || mediaType == "text/xml" || strings.HasSuffix(mediaType, "+xml"):
		if len(bytes.TrimSpace(raw)) > 0 {
			v, err := xmlBody(raw)
			if err != nil {
				return item, err
			}
			item.JSON.Set("body", v)
		}
	case mediaType == "application/x-www-form-urlencoded":
		values, err := url.ParseQuery(string(raw))
		if err != nil {
			return item, fmt.Errorf("webhook: form body: %w", err)
		}
		for k, vs := range values {
			if !utf8.ValidString(k + strings.Join(vs, "")) {
				return item, fmt.Errorf("webhook: body is not accepted: the form field %q is %w", k, wellformed.ErrNotUTF8)
			}
		}
		item.JSON.Set("body", formMap(values, queryOrder(string(raw)), false))
	default:
		if o.UnparsedAsBinary && !o.RawBody && len(raw) > 0 {
			item.Binary = map[string]workflow.BinaryData{cmp.Or(o.BinaryPropertyName, "data"): nodes.NewBinary(raw, uploadName(r), contentType)}
			return item, nil
		}
	}
	if o.RawBody {
		item.Binary = map[string]workflow.BinaryData{"data": {
			Data: base64.StdEncoding.EncodeToString(raw), MimeType: contentType,
		}}
	}
	return item, nil
}

// uploadName is the file name a request's Content-Disposition gives its body, else a new
// random name, as n8n names a body it keeps as a file.
func uploadName(r *http.Request) string {
	if _, p, err := mime.ParseMediaType(r.Header.Get("Content-Disposition")); err == nil && p["filename"] != "" {
		return p["filename"]
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// multipartItem reads form fields into body and files into binary properties.
func multipartItem(item workflow.Item, mr *multipart.Reader, o Options) (workflow.Item, error) {
	fields := url.Values{}
	var order []string
	type file struct {
		field, name, mimeType string
		data                  []byte
	}
	var files []file
	perField := map[string]int{}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return item, fmt.Errorf("webhook: multipart body: %w", err)
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return item, fmt.Errorf("webhook: multipart body: %w", err)
		}
		if part.FileName() == "" {
			order = append(order, part.FormName())
			fields.Add(part.FormName(), string(data))
			continue
		}
		name := strings.TrimSuffix(part.FormName(), "[]")
		perField[name]++
		files = append(files, file{name, part.FileName(), part.Header.Get("Content-Type"), data})
	}
	item.JSON.Set("body", formMap(fields, order, true))
	if len(files) == 0 {
		return item, nil
	}
	item.Binary = map[string]workflow.BinaryData{}
	seen := map[string]int{}
	for count, f := range files {
		key := f.field
		if perField[f.field] > 1 {
			key += strconv.Itoa(seen[f.field])
			seen[f.field]++
		}
		if o.BinaryPropertyName != "" {
			key = o.BinaryPropertyName + strconv.Itoa(count)
		}
		item.Binary[key] = nodes.NewBinary(f.data, f.name, f.mimeType)
	}
	return item, nil
}

// formMap turns form values into JSON: one value stays a string unless lists is set.
// formMap turns form values into an object whose keys come in the order they were first
// sent (order; names missing from it follow, sorted).
func formMap(v url.Values, order []string, lists bool) *workflow.Object {
	out := workflow.NewObject(len(v))
	add := func(k string) {
		vals, ok := v[k]
		if !ok || out.Has(k) {
			return
		}
		if len(vals) == 1 && !lists {
			out.Set(k, vals[0])
			return
		}
		l := make([]any, len(vals))
		for i, s := range vals {
			l[i] = s
		}
		out.Set(k, l)
	}
	for _, k := range order {
		add(k)
	}
	for _, k := range slices.Sorted(maps.Keys(v)) {
		add(k)
	}
	return out
}

// queryOrder lists the names of a URL-encoded query or form in the order they appear.
func queryOrder(raw string) []string {
	var names []string
	for part := range strings.SplitSeq(raw, "&") {
		name, _, _ := strings.Cut(part, "=")
		if k, err := url.QueryUnescape(name); err == nil && k != "" {
			names = append(names, k)
		}
	}
	return names
}
