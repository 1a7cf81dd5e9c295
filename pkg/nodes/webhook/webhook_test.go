package webhook_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/webhook"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func TestWebhookPassesRequestItemOn(t *testing.T) {
	t.Parallel()
	typ := webhook.Type()
	require.Equal(t, nodes.KindWebhook, typ.Kind)
	require.NotEmpty(t, typ.Description.Webhooks, "webhook mode picks the start node by its webhooks")
	require.Contains(t, string(typ.IconSVG), "<svg")

	req := m{"headers": m{"host": "x"}, "params": m{}, "query": m{}, "body": m{"a": []any{"b"}}}
	out, err := nodetest.Run(t, typ, nodetest.Node{Parameters: m{"httpMethod": "POST", "path": "test"}, Mode: "webhook"},
		nodetest.Items(req))
	require.NoError(t, err)
	require.Equal(t, []m{req}, nodetest.JSONs(out[0]))

	out, err = nodetest.Run(t, typ, nodetest.Node{})
	require.NoError(t, err)
	require.Equal(t, [][]m{{{}}}, nodetest.Outputs(out))
}

func TestWebhookDefaults(t *testing.T) {
	t.Parallel()
	typ := webhook.Type()
	params, err := workflow.ResolveParameters(typ.Description.Properties, m{}, 1)
	require.NoError(t, err)
	require.Equal(t, "GET", params["httpMethod"])
	require.Equal(t, "onReceived", params["responseMode"])
	require.Equal(t, 200.0, params["responseCode"])
	require.NotContains(t, params, "responseData", "shown only for lastNode")
}

// capture runs a real server that turns each request into the node's item.
func capture(t *testing.T, o webhook.Options) (string, <-chan workflow.Item) {
	t.Helper()
	items := make(chan workflow.Item, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		item, err := webhook.RequestItem(r, map[string]string{"path": "test"}, o, 1<<20)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		items <- item
	}))
	t.Cleanup(srv.Close)
	return srv.URL, items
}

func TestRequestItem(t *testing.T) {
	t.Parallel()
	multipartBody := func() (string, []byte) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		require.NoError(t, w.WriteField("a", "b"))
		fw, err := w.CreateFormFile("file", "hello.txt")
		require.NoError(t, err)
		_, _ = fw.Write([]byte("hello"))
		require.NoError(t, w.Close())
		return w.FormDataContentType(), buf.Bytes()
	}
	mpType, mpBody := multipartBody()
	tests := []struct {
		name        string
		opts        webhook.Options
		contentType string
		body        []byte
		query       string
		wantBody    any
		wantQuery   m
		wantBinary  map[string]string // property → decoded data
	}{
		{"json", webhook.Options{}, "application/json", []byte(`{"a":1}`), "x=1&y=2&y=3", m{"a": 1.0}, m{"x": "1", "y": []any{"2", "3"}}, nil},
		{"empty json", webhook.Options{}, "", nil, "", m{}, m{}, nil},
		{"form urlencoded", webhook.Options{}, "application/x-www-form-urlencoded", []byte("a=1&b=2&b=3"), "", m{"a": "1", "b": []any{"2", "3"}}, m{}, nil},
		{"multipart fields are lists", webhook.Options{}, mpType, mpBody, "", m{"a": []any{"b"}}, m{}, map[string]string{"file": "hello"}},
		{"multipart with prefix", webhook.Options{BinaryPropertyName: "upload"}, mpType, mpBody, "", m{"a": []any{"b"}}, m{}, map[string]string{"upload0": "hello"}},
		{"binary data", webhook.Options{BinaryData: true}, "image/png", []byte("PNG"), "", m{}, m{}, map[string]string{"data": "PNG"}},
		{"binary data property", webhook.Options{BinaryData: true, BinaryPropertyName: "img"}, "image/png", []byte("PNG"), "", m{}, m{}, map[string]string{"img": "PNG"}},
		{"raw body", webhook.Options{RawBody: true}, "application/json", []byte(`{"a":1}`), "", m{"a": 1.0}, m{}, map[string]string{"data": `{"a":1}`}},
		{"other types keep an empty body", webhook.Options{}, "text/plain", []byte("hi"), "", m{}, m{}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url, items := capture(t, tc.opts)
			req, err := http.NewRequest(http.MethodPost, url+"/webhook/test?"+tc.query, bytes.NewReader(tc.body))
			require.NoError(t, err)
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			req.Header.Set("X-Custom", "v")
			res, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			res.Body.Close()
			require.Equal(t, 200, res.StatusCode)
			item := <-items
			require.Equal(t, tc.wantBody, workflow.ToMaps(item.JSON.Get("body")))
			require.Equal(t, tc.wantQuery, workflow.ToMaps(item.JSON.Get("query")))
			require.Equal(t, m{"path": "test"}, workflow.ToMaps(item.JSON.Get("params")))
			headers := item.JSON.Get("headers").(*workflow.Object).ToMap()
			require.Equal(t, "v", headers["x-custom"])
			require.True(t, strings.HasPrefix(headers["host"].(string), "127.0.0.1:"))
			require.Len(t, item.Binary, len(tc.wantBinary))
			for k, want := range tc.wantBinary {
				got, err := base64.StdEncoding.DecodeString(item.Binary[k].Data)
				require.NoError(t, err)
				require.Equal(t, want, string(got), k)
			}
		})
	}
}

func TestRequestItemBadJSON(t *testing.T) {
	t.Parallel()
	url, _ := capture(t, webhook.Options{})
	res, err := http.Post(url, "application/json", strings.NewReader("{nope"))
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, 400, res.StatusCode)
}

func TestOptionsFrom(t *testing.T) {
	t.Parallel()
	require.Equal(t, webhook.Options{BinaryData: true, BinaryPropertyName: "f", RawBody: true},
		webhook.OptionsFrom(m{"binaryData": true, "binaryPropertyName": "f", "rawBody": true}))
}

func TestRequestItemKeepsOrder(t *testing.T) {
	t.Parallel()
	url, items := capture(t, webhook.Options{})
	post := func(contentType, body string) workflow.Item {
		t.Helper()
		res, err := http.Post(url+"?z=1&a=2&m=3&a=4", contentType, strings.NewReader(body))
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, 200, res.StatusCode)
		return <-items
	}
	item := post("application/json", `{"id":1,"name":"Ann","nested":{"z":1,"a":2},"list":[{"b":1,"a":2}]}`)
	require.Equal(t, []string{"headers", "params", "query", "body"}, item.JSON.Keys())
	b, err := json.Marshal(item.JSON.Get("body"))
	require.NoError(t, err)
	require.Equal(t, `{"id":1,"name":"Ann","nested":{"z":1,"a":2},"list":[{"b":1,"a":2}]}`, string(b))
	b, err = json.Marshal(item.JSON.Get("query"))
	require.NoError(t, err)
	require.Equal(t, `{"z":"1","a":["2","4"],"m":"3"}`, string(b))

	item = post("application/x-www-form-urlencoded", "name=Ann&id=1&city=Oslo")
	require.Equal(t, []string{"name", "id", "city"}, item.JSON.Get("body").(*workflow.Object).Keys())

	item = post("application/xml", `<order z="1" a="2"><zeta>1</zeta><alpha>2</alpha><zeta>3</zeta></order>`)
	b, err = json.Marshal(item.JSON.Get("body"))
	require.NoError(t, err)
	require.Equal(t, `{"order":{"$":{"z":"1","a":"2"},"zeta":["1","3"],"alpha":"2"}}`, string(b))
}
