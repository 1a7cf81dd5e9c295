package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWorkflowFromURL(t *testing.T) {
	// The files are served on this machine, which the strict egress profile opens only when told.
	e := startServer(t, map[string]string{"FLOWMILL_EGRESS_ALLOW": "127.0.0.1/32"})
	good := `{"name":"Imported",` + twoNodes + `,"tags":[{"id":"1","name":"x"}]}`
	files := http.NewServeMux()
	serve := func(path, body string) {
		files.HandleFunc(path, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(body)) })
	}
	serve("/good.json", good)
	serve("/GOOD.JSON", good)
	serve("/bom.json", "\xef\xbb\xbf"+good)
	serve("/text.json", "this is not JSON")
	serve("/array.json", `[1, 2]`)
	serve("/no-nodes.json", `{"connections":{}}`)
	serve("/nodes-object.json", `{"nodes":{},"connections":{}}`)
	serve("/connections-list.json", `{"nodes":[],"connections":[]}`)
	files.HandleFunc("/huge.json", func(w http.ResponseWriter, _ *http.Request) {
		// Written in chunks without a length, so the limit applies while reading.
		chunk := bytes.Repeat([]byte(" "), 1<<20)
		for range 16 {
			_, _ = w.Write(chunk)
		}
		_, _ = w.Write([]byte("{}"))
	})
	files.HandleFunc("/announced-huge.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "17000000")
		w.WriteHeader(200)
	})
	files.HandleFunc("/redirect.json", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/good.json", http.StatusFound)
	})
	files.HandleFunc("/loop.json", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop.json", http.StatusFound)
	})
	files.HandleFunc("/to-ftp.json", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ftp://files.example.com/wf.json", http.StatusFound)
	})
	remote := httptest.NewServer(files)
	t.Cleanup(remote.Close)

	fetch := func(rawURL string) (int, []byte) {
		t.Helper()
		return e.call(t, "GET", "rest/workflows/from-url?url="+url.QueryEscape(rawURL), "")
	}

	for _, path := range []string{"/good.json", "/GOOD.JSON", "/bom.json", "/redirect.json"} {
		status, b := fetch(remote.URL + path)
		require.Equal(t, 200, status, "%s: %s", path, b)
		var doc json.RawMessage
		decodeData(t, b, &doc)
		require.JSONEq(t, good, string(doc), path)
	}

	failures := []struct {
		url, msg string
	}{
		{remote.URL + "/text.json", "The URL does not point to a JSON file"},
		{remote.URL + "/array.json", "The file is not a workflow"},
		{remote.URL + "/no-nodes.json", `it needs "nodes" (a list) and "connections" (an object)`},
		{remote.URL + "/nodes-object.json", "The file is not a workflow"},
		{remote.URL + "/connections-list.json", "The file is not a workflow"},
		{remote.URL + "/huge.json", "The workflow file is larger than 16 MiB"},
		{remote.URL + "/announced-huge.json", "The workflow file is larger than 16 MiB"},
		{remote.URL + "/missing.json", "Could not load a workflow from that URL: it answered 404 Not Found"},
		{remote.URL + "/to-ftp.json", "Could not load a workflow from that URL: it redirects to an address that is not http or https"},
		{remote.URL + "/loop.json", "Could not load a workflow from that URL: it redirects more than 5 times"},
		{"http://127.0.0.1:1/closed.json", "Could not load a workflow from that URL"},
		{remote.URL + "/good.json.txt", "Invalid URL"},
		{remote.URL + "/good", "Invalid URL"},
		{remote.URL + "/good#.json", "Invalid URL"},
		{remote.URL + "/good?name=.json", "Invalid URL"},
		{remote.URL + "/good?name=x#/.json", "Invalid URL"},
		{"ftp://files.example.com/wf.json", "Invalid URL"},
		{"file:///etc/wf.json", "Invalid URL"},
		{"http:///wf.json", "Invalid URL"},
		{"wf.json", "Invalid URL"},
		{"", "The query parameter url is missing"},
	}
	for _, f := range failures {
		status, b := fetch(f.url)
		requireError(t, status, b, 400, f.msg)
	}
	status, b := fetch("ftp://files.example.com/wf.json")
	require.Contains(t, string(b), `"hint":"The URL must start with http:// or https:// and end in .json"`, "%d", status)

	// Nothing is saved by fetching.
	status, b = e.call(t, "GET", "rest/workflows", "")
	require.Equal(t, 200, status)
	require.True(t, strings.Contains(string(b), `"data":[]`), string(b))
}
