package httprequest_test

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/httprequest"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

// echo answers every request with what it received: method, path, raw query, headers, body and,
// for multipart bodies, the parts.
func echo(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		headers := m{}
		for k, v := range r.Header {
			headers[strings.ToLower(k)] = strings.Join(v, ", ")
		}
		out := m{"method": r.Method, "path": r.URL.Path, "query": r.URL.RawQuery, "headers": headers, "body": string(b)}
		if mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
			parts := []any{}
			mr := multipart.NewReader(strings.NewReader(string(b)), params["boundary"])
			for {
				p, err := mr.NextPart()
				if err != nil {
					break
				}
				data, _ := io.ReadAll(p)
				parts = append(parts, m{"name": p.FormName(), "file": p.FileName(), "type": p.Header.Get("Content-Type"), "data": string(data)})
			}
			out["parts"] = parts
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func run(t *testing.T, version float64, params m, in ...workflow.Item) ([]workflow.Item, error) {
	t.Helper()
	typ := httprequest.TypeV1()
	if version == 2 {
		typ = httprequest.TypeV2()
	}
	if len(in) == 0 {
		in = nodetest.Items(m{})
	}
	out, err := nodetest.Run(t, typ, nodetest.Node{Version: version, Parameters: params}, in)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func ui(entries ...m) m {
	l := make([]any, len(entries))
	for i, e := range entries {
		l[i] = e
	}
	return m{"parameter": l}
}

func TestMethods(t *testing.T) {
	t.Parallel()
	srv := echo(t)
	for _, method := range []string{"DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"} {
		t.Run(method, func(t *testing.T) {
			t.Parallel()
			for _, v := range []float64{1, 2} {
				out, err := run(t, v, m{"requestMethod": method, "url": srv.URL + "/x"})
				require.NoError(t, err)
				require.Len(t, out, 1)
				if method == "HEAD" {
					require.Equal(t, m{}, out[0].JSON.ToMap(), "a HEAD response has no body")
					continue
				}
				require.Equal(t, method, out[0].JSON.Get("method"))
				require.Equal(t, "/x", out[0].JSON.Get("path"))
				require.Equal(t, "application/json,text/*;q=0.99", out[0].JSON.Get("headers").(*workflow.Object).Get("accept"))
				require.Equal(t, workflow.PairedItems{{Item: 0}}, *out[0].PairedItem)
			}
		})
	}
}

func TestRequestParameters(t *testing.T) {
	t.Parallel()
	srv := echo(t)
	tests := []struct {
		name   string
		params m
		check  func(t *testing.T, got m)
	}{
		{"query from the UI, repeated names become lists", m{
			"queryParametersUi": ui(m{"name": "a", "value": "1"}, m{"name": "b", "value": "x y"}, m{"name": "b", "value": "z"}),
		}, func(t *testing.T, got m) { require.Equal(t, "a=1&b%5B0%5D=x%20y&b%5B1%5D=z", got["query"]) }},
		{"useQueryString repeats keys", m{
			"queryParametersUi": ui(m{"name": "b", "value": "x"}, m{"name": "b", "value": "z"}),
			"options":           m{"useQueryString": true},
		}, func(t *testing.T, got m) { require.Equal(t, "b=x&b=z", got["query"]) }},
		{"query added to the URL's own", m{
			"url": srv.URL + "/?keep=1", "queryParametersUi": ui(m{"name": "a", "value": "1"}),
		}, func(t *testing.T, got m) { require.Equal(t, "keep=1&a=1", got["query"]) }},
		{"headers from the UI are lower-cased", m{
			"headerParametersUi": ui(m{"name": "X-Token", "value": "t"}, m{"name": "Accept", "value": "text/plain"}),
		}, func(t *testing.T, got m) {
			require.Equal(t, "t", got["headers"].(m)["x-token"])
			require.Equal(t, "text/plain", got["headers"].(m)["accept"])
		}},
		{"JSON body from the UI", m{
			"requestMethod": "POST", "bodyParametersUi": ui(m{"name": "a", "value": "1"}, m{"name": "b", "value": "2"}),
		}, func(t *testing.T, got m) {
			require.JSONEq(t, `{"a":"1","b":"2"}`, got["body"].(string))
			require.Equal(t, "application/json", got["headers"].(m)["content-type"])
		}},
		{"DELETE sends a body", m{
			"requestMethod": "DELETE", "bodyParametersUi": ui(m{"name": "a", "value": "1"}),
		}, func(t *testing.T, got m) { require.JSONEq(t, `{"a":"1"}`, got["body"].(string)) }},
		{"GET sends no body", m{
			"requestMethod": "GET", "bodyParametersUi": ui(m{"name": "a", "value": "1"}),
		}, func(t *testing.T, got m) { require.Equal(t, "", got["body"]) }},
		{"form urlencoded", m{
			"requestMethod": "POST", "bodyParametersUi": ui(m{"name": "a", "value": "1 2"}, m{"name": "b", "value": "&"}),
			"options": m{"bodyContentType": "form-urlencoded"},
		}, func(t *testing.T, got m) {
			require.Equal(t, "a=1%202&b=%26", got["body"])
			require.Equal(t, "application/x-www-form-urlencoded", got["headers"].(m)["content-type"])
		}},
		{"multipart fields", m{
			"requestMethod": "PUT", "bodyParametersUi": ui(m{"name": "a", "value": "1"}),
			"options": m{"bodyContentType": "multipart-form-data"},
		}, func(t *testing.T, got m) {
			require.Equal(t, []any{m{"name": "a", "file": "", "type": "", "data": "1"}}, got["parts"])
		}},
		{"JSON parameters", m{
			"requestMethod": "PATCH", "jsonParameters": true,
			"bodyParametersJson":   `{"z":1,"nested":{"b":[1,2],"a":0}}`,
			"headerParametersJson": `{"X-A":"1"}`,
			"queryParametersJson":  `{"q":{"x":"1"},"l":[1,2]}`,
		}, func(t *testing.T, got m) {
			// The body and the query keep the order the JSON was written in.
			require.Equal(t, `{"z":1,"nested":{"b":[1,2],"a":0}}`, got["body"].(string))
			require.Equal(t, "1", got["headers"].(m)["x-a"])
			require.Equal(t, "q%5Bx%5D=1&l%5B0%5D=1&l%5B1%5D=2", got["query"])
		}},
		{"JSON parameters from an expression object", m{
			"requestMethod": "POST", "jsonParameters": true, "bodyParametersJson": "={{ {a: $json.v} }}",
		}, func(t *testing.T, got m) { require.JSONEq(t, `{"a":5}`, got["body"].(string)) }},
		{"raw body with a custom MIME type", m{
			"requestMethod": "POST", "jsonParameters": true, "bodyParametersJson": "<a>1</a>",
			"options": m{"bodyContentType": "raw", "bodyContentCustomMimeType": "text/xml"},
		}, func(t *testing.T, got m) {
			require.Equal(t, "<a>1</a>", got["body"])
			require.Equal(t, "text/xml", got["headers"].(m)["content-type"])
		}},
		{"expressions per item", m{
			"url": "={{ '" + srv.URL + "/item/' + $json.v }}",
		}, func(t *testing.T, got m) { require.Equal(t, "/item/5", got["path"]) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			params := m{"url": srv.URL + "/"}
			for k, v := range tc.params {
				params[k] = v
			}
			out, err := run(t, 1, params, nodetest.Items(m{"v": 5.0})...)
			require.NoError(t, err)
			require.Len(t, out, 1)
			tc.check(t, out[0].JSON.ToMap())
		})
	}
}

func TestBinaryBody(t *testing.T) {
	t.Parallel()
	srv := echo(t)
	in := []workflow.Item{{JSON: workflow.ObjectFromMap(m{}), Binary: map[string]workflow.BinaryData{
		"data":  nodes.NewBinary([]byte("hello"), "hello.txt", "text/plain"),
		"other": nodes.NewBinary([]byte("PNG"), "a.png", "image/png"),
	}}}
	base := m{"url": srv.URL, "requestMethod": "POST", "jsonParameters": true, "sendBinaryData": true}
	with := func(extra m) m {
		p := m{}
		for k, v := range base {
			p[k] = v
		}
		for k, v := range extra {
			p[k] = v
		}
		return p
	}
	out, err := run(t, 1, with(m{"options": m{"bodyContentType": "raw"}}), in...)
	require.NoError(t, err)
	require.Equal(t, "hello", out[0].JSON.Get("body"))

	out, err = run(t, 1, with(m{"options": m{"bodyContentType": "multipart-form-data"}}), in...)
	require.NoError(t, err)
	require.Equal(t, []any{m{"name": "file", "file": "hello.txt", "type": "text/plain", "data": "hello"}}, workflow.ToMaps(out[0].JSON.Get("parts")))

	out, err = run(t, 1, with(m{"binaryPropertyName": "f1:data, f2:other", "options": m{"bodyContentType": "multipart-form-data"}}), in...)
	require.NoError(t, err)
	require.Equal(t, []any{
		m{"name": "f1", "file": "hello.txt", "type": "text/plain", "data": "hello"},
		m{"name": "f2", "file": "a.png", "type": "image/png", "data": "PNG"},
	}, workflow.ToMaps(out[0].JSON.Get("parts")))

	_, err = run(t, 1, with(m{"binaryPropertyName": "data,other", "options": m{"bodyContentType": "multipart-form-data"}}), in...)
	require.ErrorContains(t, err, "sendKey1:binaryProperty1")
	_, err = run(t, 1, with(m{}), in...)
	require.ErrorContains(t, err, "only supported when option \"Body Content Type\"")
	_, err = run(t, 1, with(m{"binaryPropertyName": "nope", "options": m{"bodyContentType": "raw"}}), in...)
	require.ErrorContains(t, err, `"nope"`)
	_, err = run(t, 1, with(m{"options": m{"bodyContentType": "raw"}}), nodetest.Items(m{})...)
	require.ErrorContains(t, err, "No binary data exists on item!")
}

func TestInvalidJSONParameter(t *testing.T) {
	t.Parallel()
	_, err := run(t, 1, m{"url": "http://127.0.0.1:1", "jsonParameters": true, "queryParametersJson": "{nope"})
	require.ErrorContains(t, err, `The data in "Query Paramters" is no valid JSON`)
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
