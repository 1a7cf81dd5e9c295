package httprequest_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/httprequest"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// fixed serves canned responses by path.
func fixed(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	reply := func(path, ct string, status int, body string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, _ *http.Request) {
			if ct != "" {
				w.Header().Set("Content-Type", ct)
			}
			w.Header().Add("Set-Cookie", "a=1")
			w.WriteHeader(status)
			_, _ = w.Write([]byte(body))
		})
	}
	reply("/object", "application/json", 200, `{"a":1}`)
	reply("/ordered", "application/json", 200, `{"id":1,"name":"Ann","nested":{"z":1,"a":[{"y":1,"b":2}]}}`)
	reply("/array", "application/json", 200, `[{"a":1},{"a":2},3]`)
	reply("/null", "application/json", 200, `null`)
	reply("/empty", "", 204, ``)
	reply("/html", "text/html", 200, `<p>hi</p>`)
	reply("/report.pdf", "application/pdf", 200, "%PDF-1.4 test")
	reply("/download", "application/octet-stream", 200, "\x89PNG\r\n\x1a\n0000")
	reply("/notfound", "application/json", 404, `{"message":"No such thing"}`)
	reply("/broken", "text/plain", 500, `database down`)
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/object", http.StatusFound)
	})
	mux.HandleFunc("/redirect307", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/object", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/hang", func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestResponseFormats(t *testing.T) {
	t.Parallel()
	srv := fixed(t)
	in := []workflow.Item{{JSON: workflow.ObjectFromMap(m{"keep": true}), Binary: map[string]workflow.BinaryData{"old": {Data: b64("x"), MimeType: "text/plain"}}}}
	tests := []struct {
		name   string
		params m
		check  func(t *testing.T, out []workflow.Item)
	}{
		{"json object", m{"url": "/object"}, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, []m{{"a": 1.0}}, nodetest.JSONs(out))
		}},
		{"json keeps the order of the document", m{"url": "/ordered"}, func(t *testing.T, out []workflow.Item) {
			b, err := json.Marshal(out[0].JSON)
			require.NoError(t, err)
			require.Equal(t, `{"id":1,"name":"Ann","nested":{"z":1,"a":[{"y":1,"b":2}]}}`, string(b))
		}},
		{"full response keeps n8n's field order", m{"url": "/ordered", "options": m{"fullResponse": true}}, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, []string{"body", "headers", "statusCode", "statusMessage"}, out[0].JSON.Keys())
			require.Equal(t, []string{"id", "name", "nested"}, out[0].JSON.Get("body").(*workflow.Object).Keys())
		}},
		{"json array gives one item per element", m{"url": "/array"}, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, []m{{"a": 1.0}, {"a": 2.0}, {"data": 3.0}}, nodetest.JSONs(out))
			require.Equal(t, workflow.PairedItems{{Item: 0}}, *out[2].PairedItem)
		}},
		{"splitIntoItems", m{"url": "/array", "options": m{"splitIntoItems": true}}, func(t *testing.T, out []workflow.Item) {
			require.Len(t, out, 3)
		}},
		{"json null is an empty object", m{"url": "/null"}, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, []m{{}}, nodetest.JSONs(out))
		}},
		{"empty body is an empty object", m{"url": "/empty"}, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, []m{{}}, nodetest.JSONs(out))
		}},
		{"json full response", m{"url": "/object", "options": m{"fullResponse": true}}, func(t *testing.T, out []workflow.Item) {
			j := out[0].JSON.ToMap()
			require.Equal(t, m{"a": 1.0}, j["body"])
			require.Equal(t, 200.0, j["statusCode"])
			require.Equal(t, "OK", j["statusMessage"])
			require.Equal(t, "application/json", j["headers"].(m)["content-type"])
			require.Equal(t, []any{"a=1"}, j["headers"].(m)["set-cookie"])
		}},
		{"string", m{"url": "/html", "responseFormat": "string"}, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, []m{{"data": "<p>hi</p>"}}, nodetest.JSONs(out))
		}},
		{"string property and full response", m{"url": "/html", "responseFormat": "string", "dataPropertyName": "page",
			"options": m{"fullResponse": true}}, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, "<p>hi</p>", out[0].JSON.Get("page"))
			require.Equal(t, 200.0, out[0].JSON.Get("statusCode"))
		}},
		{"file keeps the item and adds binary", m{"url": "/report.pdf", "responseFormat": "file"}, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, m{"keep": true}, workflow.ToMaps(out[0].JSON))
			b := out[0].Binary["data"]
			require.Equal(t, b64("%PDF-1.4 test"), b.Data)
			require.Equal(t, "application/pdf", b.MimeType)
			require.Equal(t, "report.pdf", b.FileName)
			require.Equal(t, "pdf", b.FileExtension)
			require.Contains(t, out[0].Binary, "old")
		}},
		{"file type sniffed without extension", m{"url": "/download", "responseFormat": "file", "dataPropertyName": "img"}, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, "image/png", out[0].Binary["img"].MimeType)
		}},
		{"file text falls back to text/plain", m{"url": "/html", "responseFormat": "file"}, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, "text/plain", out[0].Binary["data"].MimeType)
		}},
		{"file full response", m{"url": "/report.pdf", "responseFormat": "file", "options": m{"fullResponse": true}}, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, 200.0, out[0].JSON.Get("statusCode"))
			require.NotContains(t, workflow.ToMaps(out[0].JSON), "keep")
		}},
		{"redirects are followed", m{"url": "/redirect"}, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, []m{{"a": 1.0}}, nodetest.JSONs(out))
		}},
		{"POST redirects are followed unless switched off", m{"url": "/redirect307", "requestMethod": "POST"}, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, []m{{"a": 1.0}}, nodetest.JSONs(out))
		}},
		{"ignoreResponseCode returns error bodies", m{"url": "/notfound", "options": m{"ignoreResponseCode": true}}, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, []m{{"message": "No such thing"}}, nodetest.JSONs(out))
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.params["url"] = srv.URL + tc.params["url"].(string)
			out, err := run(t, 2, tc.params, in...)
			require.NoError(t, err)
			tc.check(t, out)
		})
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	srv := fixed(t)
	tests := []struct {
		name, url                      string
		options                        m
		message, description, httpCode string
		responseFormat                 string
	}{
		{"404 with a JSON message", "/notfound", nil, "Request failed with status code 404", "No such thing", "404", ""},
		{"500 with text", "/broken", nil, "Request failed with status code 500", "database down", "500", ""},
		{"redirect not followed", "/redirect", m{"followRedirect": false}, "Request failed with status code 302", `<a href="/object">Found</a>.`, "302", ""},
		{"POST redirect not followed", "/redirect307", m{"followAllRedirects": false}, "Request failed with status code 307", "", "307", ""},
		{"invalid JSON", "/html", nil, `Response body is not valid JSON. Change "Response Format" to "String"`, "", "", ""},
		{"timeout", "/hang", m{"timeout": 50.0}, "timeout of 50ms exceeded", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			params := m{"url": srv.URL + tc.url}
			if tc.options != nil {
				params["options"] = tc.options
			}
			if tc.name == "POST redirect not followed" {
				params["requestMethod"] = "POST"
			}
			_, err := run(t, 1, params)
			ne := nodetest.NodeError(t, err)
			require.Equal(t, tc.message, ne.Message)
			require.Equal(t, tc.description, ne.Description)
			require.Equal(t, tc.httpCode, ne.HTTPCode)
			require.Equal(t, 0, ne.ItemIndex)
		})
	}
}

func TestContinueOnFail(t *testing.T) {
	t.Parallel()
	srv := fixed(t)
	in := nodetest.Items(m{"p": "/notfound"}, m{"p": "/object"})
	out, err := nodetest.Run(t, httprequest.TypeV1(), nodetest.Node{Version: 1, ContinueOnFail: true,
		Parameters: m{"url": "={{ '" + srv.URL + "' + $json.p }}"}}, in)
	require.NoError(t, err)
	require.Len(t, out[0], 2)
	e := out[0][0].JSON.Get("error").(*workflow.Object).ToMap()
	require.Equal(t, "StatusCodeError", e["name"])
	require.Equal(t, 404.0, e["statusCode"])
	require.Equal(t, m{"message": "No such thing"}, e["error"])
	require.Equal(t, `404 - {"message":"No such thing"}`, e["message"])
	require.Equal(t, workflow.PairedItems{{Item: 0}}, *out[0][0].PairedItem)
	require.Equal(t, m{"a": 1.0}, workflow.ToMaps(out[0][1].JSON))
}

func TestCancellation(t *testing.T) {
	t.Parallel()
	srv := fixed(t)
	ctx, cancel := context.WithCancel(context.Background())
	arrived := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-r.Context().Done()
	}))
	t.Cleanup(hang.Close)
	go func() {
		<-arrived
		cancel()
	}()
	_, err := nodetest.Run(t, httprequest.TypeV1(), nodetest.Node{Version: 1, Context: ctx, ContinueOnFail: true,
		Parameters: m{"url": hang.URL}}, nodetest.Items(m{}))
	require.True(t, errors.Is(err, context.Canceled), "got %v", err)

	// The batch pause ends with the context as well.
	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	_, err = nodetest.Run(t, httprequest.TypeV1(), nodetest.Node{Version: 1, Context: ctx2,
		Parameters: m{"url": srv.URL + "/object", "options": m{"batchSize": 1.0, "batchInterval": 60000.0}}}, nodetest.Items(m{}, m{}))
	require.ErrorIs(t, err, context.Canceled)
}

func TestBatchingKeepsOrder(t *testing.T) {
	t.Parallel()
	srv := echo(t)
	in := nodetest.Items(m{"i": 0.0}, m{"i": 1.0}, m{"i": 2.0})
	out, err := run(t, 1, m{"url": "={{ '" + srv.URL + "/' + $json.i }}", "options": m{"batchSize": 0.0, "batchInterval": 1.0}}, in...)
	require.NoError(t, err)
	require.Equal(t, []any{"/0", "/1", "/2"}, []any{out[0].JSON.Get("path"), out[1].JSON.Get("path"), out[2].JSON.Get("path")})
}

func TestProxyAndTLS(t *testing.T) {
	t.Parallel()
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"proxied":"` + r.URL.String() + `"}`))
	}))
	t.Cleanup(proxy.Close)
	out, err := run(t, 1, m{"url": "http://192.0.2.10/x", "options": m{"proxy": proxy.URL}})
	require.NoError(t, err)
	require.Equal(t, "http://192.0.2.10/x", out[0].JSON.Get("proxied"))

	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"secure":true}`))
	}))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the rejected handshake is expected
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	_, err = run(t, 1, m{"url": tlsSrv.URL})
	require.ErrorContains(t, err, "certificate")
	out, err = run(t, 1, m{"url": tlsSrv.URL, "allowUnauthorizedCerts": true})
	require.NoError(t, err)
	require.Equal(t, m{"secure": true}, workflow.ToMaps(out[0].JSON))
}

func TestInvalidURL(t *testing.T) {
	t.Parallel()
	_, err := run(t, 1, m{"url": "not a url"})
	require.ErrorContains(t, err, "Invalid URL")
}
