package respondtowebhook_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/respondtowebhook"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func TestRespondToWebhook(t *testing.T) {
	t.Parallel()
	in := []workflow.Item{
		{JSON: workflow.ObjectFromMap(m{"a": 1.0}), Binary: map[string]workflow.BinaryData{"file": nodes.NewBinary([]byte("PDF"), "a.pdf", "application/pdf")}},
		{JSON: workflow.ObjectFromMap(m{"a": 2.0})},
	}
	tests := []struct {
		name   string
		params m
		want   respondtowebhook.Response
	}{
		{"first incoming item", m{}, respondtowebhook.Response{StatusCode: 200, Headers: map[string]string{}, Body: m{"a": 1.0}}},
		{"json", m{"respondWith": "json", "responseBody": `{"ok":true}`}, respondtowebhook.Response{StatusCode: 200, Headers: map[string]string{}, Body: m{"ok": true}}},
		{"json from an expression", m{"respondWith": "json", "responseBody": "={{ {n: $json.a} }}"}, respondtowebhook.Response{StatusCode: 200, Headers: map[string]string{}, Body: m{"n": 1.0}}},
		{"empty json", m{"respondWith": "json"}, respondtowebhook.Response{StatusCode: 200, Headers: map[string]string{}}},
		{"text with code and headers", m{"respondWith": "text", "responseBody": "={{ 'n=' + $json.a }}", "options": m{
			"responseCode": 201.0, "responseHeaders": m{"entries": []any{m{"name": "X-Reply", "value": "yes"}}}}},
			respondtowebhook.Response{StatusCode: 201, Headers: map[string]string{"x-reply": "yes"}, Body: "n=1"}},
		{"no data", m{"respondWith": "noData"}, respondtowebhook.Response{StatusCode: 200, Headers: map[string]string{}}},
		{"binary chosen automatically", m{"respondWith": "binary"}, respondtowebhook.Response{StatusCode: 200,
			Headers: map[string]string{"content-type": "application/pdf"}, Binary: []byte("PDF")}},
		{"binary from a named field keeps a set content type", m{"respondWith": "binary", "responseDataSource": "set", "inputFieldName": "file",
			"options": m{"responseHeaders": m{"entries": []any{m{"name": "Content-Type", "value": "application/octet-stream"}}}}},
			respondtowebhook.Response{StatusCode: 200, Headers: map[string]string{"content-type": "application/octet-stream"}, Binary: []byte("PDF")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			nodeCtx := map[string]any{}
			out, err := nodetest.Run(t, respondtowebhook.Type(), nodetest.Node{Version: 1, Parameters: tc.params, NodeContext: nodeCtx}, in)
			require.NoError(t, err)
			require.Equal(t, nodetest.JSONs(in), nodetest.JSONs(out[0]), "input passes through")
			got, ok := respondtowebhook.ResponseFrom(nodeCtx)
			require.True(t, ok)
			got.Body = workflow.ToMaps(got.Body)
			require.Equal(t, tc.want, *got)
		})
	}
}

func TestFirstResponseCounts(t *testing.T) {
	t.Parallel()
	nodeCtx := map[string]any{}
	for _, body := range []string{"first", "second"} {
		_, err := nodetest.Run(t, respondtowebhook.Type(), nodetest.Node{NodeContext: nodeCtx,
			Parameters: m{"respondWith": "text", "responseBody": body}}, nodetest.Items(m{}))
		require.NoError(t, err)
	}
	got, _ := respondtowebhook.ResponseFrom(nodeCtx)
	require.Equal(t, "first", got.Body)
	_, ok := respondtowebhook.ResponseFrom(map[string]any{})
	require.False(t, ok)
}

func TestRespondToWebhookErrors(t *testing.T) {
	t.Parallel()
	_, err := nodetest.Run(t, respondtowebhook.Type(), nodetest.Node{Parameters: m{"respondWith": "json", "responseBody": "{nope"}}, nodetest.Items(m{}))
	require.ErrorContains(t, err, "Invalid JSON in 'Response Body' field")
	_, err = nodetest.Run(t, respondtowebhook.Type(), nodetest.Node{Parameters: m{"respondWith": "binary"}}, nodetest.Items(m{}))
	require.ErrorContains(t, err, "No binary data exists on the first item!")
	in := []workflow.Item{{JSON: workflow.ObjectFromMap(m{}), Binary: map[string]workflow.BinaryData{"a": {Data: "eA=="}}}}
	_, err = nodetest.Run(t, respondtowebhook.Type(), nodetest.Node{Parameters: m{"respondWith": "binary", "responseDataSource": "set", "inputFieldName": "b"}}, in)
	require.ErrorContains(t, err, `"b"`)
	require.NotEmpty(t, respondtowebhook.Type().IconSVG)
}

func TestRespondToWebhookKeepsBodyOrder(t *testing.T) {
	t.Parallel()
	for _, params := range []m{
		{"respondWith": "json", "responseBody": `{"z":1,"a":{"y":2,"b":3}}`},
		{"respondWith": "firstIncomingItem"},
	} {
		var it workflow.Item
		require.NoError(t, json.Unmarshal([]byte(`{"json":{"z":1,"a":{"y":2,"b":3}}}`), &it))
		nodeCtx := map[string]any{}
		_, err := nodetest.Run(t, respondtowebhook.Type(), nodetest.Node{Parameters: params, NodeContext: nodeCtx}, []workflow.Item{it})
		require.NoError(t, err)
		got, ok := respondtowebhook.ResponseFrom(nodeCtx)
		require.True(t, ok)
		b, err := json.Marshal(got.Body)
		require.NoError(t, err)
		require.Equal(t, `{"z":1,"a":{"y":2,"b":3}}`, string(b), params["respondWith"])
	}
}

func TestRespondToWebhookV11(t *testing.T) {
	t.Parallel()
	in := []workflow.Item{{JSON: workflow.ObjectFromMap(m{"a": 1.0})}, {JSON: workflow.ObjectFromMap(m{"a": 2.0})}}
	tests := []struct {
		name   string
		params m
		want   respondtowebhook.Response
	}{
		{"all incoming items", m{"respondWith": "allIncomingItems"}, respondtowebhook.Response{StatusCode: 200, Headers: map[string]string{},
			Body: []any{m{"a": 1.0}, m{"a": 2.0}}}},
		{"all incoming items under a key", m{"respondWith": "allIncomingItems", "options": m{"responseKey": "data.items"}},
			respondtowebhook.Response{StatusCode: 200, Headers: map[string]string{}, Body: m{"data": m{"items": []any{m{"a": 1.0}, m{"a": 2.0}}}}}},
		{"first item under a key", m{"options": m{"responseKey": "data"}},
			respondtowebhook.Response{StatusCode: 200, Headers: map[string]string{}, Body: m{"data": m{"a": 1.0}}}},
		{"json default body", m{"respondWith": "json"}, respondtowebhook.Response{StatusCode: 200, Headers: map[string]string{}, Body: m{"myField": "value"}}},
		{"redirect", m{"respondWith": "redirect", "redirectURL": "https://example.com/x"},
			respondtowebhook.Response{StatusCode: 307, Headers: map[string]string{"location": "https://example.com/x"}}},
		{"redirect with a code", m{"respondWith": "redirect", "redirectURL": "/y", "options": m{"responseCode": 301.0}},
			respondtowebhook.Response{StatusCode: 301, Headers: map[string]string{"location": "/y"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			nodeCtx := map[string]any{}
			out, err := nodetest.Run(t, respondtowebhook.Type(), nodetest.Node{Version: 1.1, Parameters: tc.params, NodeContext: nodeCtx}, in)
			require.NoError(t, err)
			require.Equal(t, nodetest.JSONs(in), nodetest.JSONs(out[0]))
			got, ok := respondtowebhook.ResponseFrom(nodeCtx)
			require.True(t, ok)
			got.Body = workflow.ToMaps(got.Body)
			require.Equal(t, tc.want, *got)
		})
	}
}

func TestRespondToWebhookJWT(t *testing.T) {
	t.Parallel()
	nodeCtx := map[string]any{}
	_, err := nodetest.Run(t, respondtowebhook.Type(), nodetest.Node{Version: 1.1, NodeContext: nodeCtx,
		Parameters:  m{"respondWith": "jwt", "payload": `{"sub":"ann","role":"x"}`},
		Credentials: m{"jwtAuth": m{"id": "1", "name": "jwt"}},
		CredentialData: func(context.Context, nodes.CredentialRef) (map[string]any, error) {
			return m{"keyType": "passphrase", "secret": "s3cret", "algorithm": "HS256"}, nil
		}}, []workflow.Item{{JSON: workflow.NewObject(0)}})
	require.NoError(t, err)
	got, ok := respondtowebhook.ResponseFrom(nodeCtx)
	require.True(t, ok)
	token, _ := workflow.ToMaps(got.Body).(map[string]any)["token"].(string)
	claims := jwt.MapClaims{}
	_, err = jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return []byte("s3cret"), nil }, jwt.WithValidMethods([]string{"HS256"}))
	require.NoError(t, err)
	require.Equal(t, "ann", claims["sub"])
	require.NotNil(t, claims["iat"])
}

func TestResponseOutput(t *testing.T) {
	t.Parallel()
	in := []workflow.Item{{JSON: workflow.ObjectFromMap(m{"a": 1.0})}}
	run := func(version float64, params m) [][]workflow.Item {
		out, err := nodetest.Run(t, respondtowebhook.Type(), nodetest.Node{Version: version, Parameters: params, NodeContext: map[string]any{}}, in)
		require.NoError(t, err)
		return out
	}
	text := m{"respondWith": "text", "responseBody": "hi", "options": m{"responseCode": 201.0}}
	require.Len(t, run(1.2, text), 1)
	out := run(1.3, text)
	require.Len(t, out, 2)
	require.Equal(t, nodetest.JSONs(in), nodetest.JSONs(out[0]))
	require.Equal(t, []map[string]any{{"response": m{"body": "hi", "headers": m{}, "statusCode": 201.0}}}, nodetest.JSONs(out[1]))
	require.Len(t, run(1.4, text), 1)
	text["enableResponseOutput"] = true
	require.Len(t, run(1.4, text), 2)
	require.Len(t, run(1.5, text), 2)
}
