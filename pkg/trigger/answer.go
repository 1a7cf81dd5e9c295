package trigger

import (
	"cmp"
	"encoding/json"
	"fmt"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/respondtowebhook"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Answer is the HTTP response a webhook gives its caller. Workers send it to the api through
// Redis, so it is plain JSON (Body as base64).
type Answer struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    []byte            `json:"body,omitempty"`
}

const (
	contentTypeJSON = "application/json; charset=utf-8"
	contentTypeText = "text/html; charset=utf-8"
)

// ErrorAnswer is an answer in the error shape of every Flowmill endpoint.
func ErrorAnswer(status int, message string) Answer {
	return valueAnswer(status, map[string]any{"code": status, "message": message})
}

// valueAnswer sends a string as it is and anything else as JSON, as n8n's webhook responses do.
func valueAnswer(status int, v any) Answer {
	if s, ok := v.(string); ok {
		return Answer{Status: status, Headers: map[string]string{"content-type": contentTypeText}, Body: []byte(s)}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ErrorAnswer(500, "The response cannot be encoded as JSON: "+err.Error())
	}
	return Answer{Status: status, Headers: map[string]string{"content-type": contentTypeJSON}, Body: b}
}

// withHeaders adds the webhook's custom headers and content type.
func (r Response) withHeaders(a Answer) Answer {
	if a.Headers == nil {
		a.Headers = map[string]string{}
	}
	if r.ContentType != "" && len(a.Body) > 0 {
		a.Headers["content-type"] = r.ContentType
	}
	for k, v := range r.Headers {
		a.Headers[k] = v
	}
	return a
}

// OnReceived is the answer given as soon as the execution is queued: the custom body
// (options.responseData), no body (noResponseBody), or n8n's "Workflow was started".
func (r Response) OnReceived() Answer {
	switch {
	case r.Data == "noData":
		return r.withHeaders(Answer{Status: r.Code})
	case r.Body != "":
		return r.withHeaders(valueAnswer(r.Code, r.Body))
	}
	return r.withHeaders(valueAnswer(r.Code, map[string]any{"message": "Workflow was started"}))
}

// WaitsForRun reports whether the caller waits for the execution to answer.
func (r Response) WaitsForRun() bool {
	return r.Mode == ModeLastNode || r.Mode == ModeResponseNode || r.Mode == ModeStreaming
}

// Finished is the answer of a run that settled without a Respond to Webhook answer: an error
// answer for a failed run, and for lastNode the last node's data as Data says.
func (r Response) Finished(res *engine.Result) Answer {
	st := res.State
	if res.Status == workflow.StatusError || res.Status == workflow.StatusCanceled || st == nil || st.ResultData.Error != nil {
		return valueAnswer(500, map[string]any{"message": "Workflow did error."})
	}
	if r.Mode == ModeStreaming {
		// No node here streams: the stream n8n opened ends without chunks.
		return Answer{Status: 200, Headers: map[string]string{"content-type": contentTypeJSON, "cache-control": "no-cache"}}
	}
	if r.Mode == ModeResponseNode {
		return valueAnswer(r.Code, map[string]any{"message": "Workflow executed sucessfully"})
	}
	runs := st.ResultData.RunData[st.ResultData.LastNodeExecuted]
	if len(runs) == 0 || runs[len(runs)-1].Data == nil || len(runs[len(runs)-1].Data.Main) == 0 {
		return valueAnswer(r.Code, map[string]any{"message": "Workflow did execute sucessfully but the last node did not return any data."})
	}
	items := runs[len(runs)-1].Data.Main[0]
	if len(items) == 0 {
		return ErrorAnswer(500, "No item to return got found.")
	}
	switch r.Data {
	case "allEntries":
		all := make([]*workflow.Object, len(items))
		for i, it := range items {
			all[i] = it.JSON
		}
		return r.withHeaders(valueAnswer(r.Code, all))
	case "noData":
		return r.withHeaders(Answer{Status: r.Code})
	case "firstEntryBinary":
		return r.binary(items[0])
	}
	var data any = items[0].JSON
	if r.PropertyName != "" {
		data, _ = workflow.LookupPath(items[0].JSON, r.PropertyName)
	}
	if r.ContentType != "" {
		if _, isString := data.(string); !isString {
			b, _ := json.Marshal(data)
			data = string(b)
		}
	}
	return r.withHeaders(valueAnswer(r.Code, data))
}

func (r Response) binary(item workflow.Item) Answer {
	if len(item.Binary) == 0 {
		return ErrorAnswer(500, "No binary data to return got found.")
	}
	name := cmp.Or(r.BinaryPropertyName, "data")
	bin, ok := item.Binary[name]
	if !ok {
		return ErrorAnswer(500, fmt.Sprintf("The binary property %q which should be returned does not exist.", name))
	}
	data, err := nodes.BinaryBytes(bin)
	if err != nil {
		return ErrorAnswer(500, fmt.Sprintf("The binary property %q cannot be read: %v", name, err))
	}
	a := Answer{Status: r.Code, Headers: map[string]string{}, Body: data}
	if bin.MimeType != "" {
		a.Headers["content-type"] = bin.MimeType
	}
	for k, v := range r.Headers {
		a.Headers[k] = v
	}
	return a
}

// RespondNodeAnswer turns the answer a Respond to Webhook node recorded into the HTTP answer.
func RespondNodeAnswer(resp *respondtowebhook.Response) Answer {
	var a Answer
	switch {
	case resp.Binary != nil:
		a = Answer{Status: resp.StatusCode, Headers: map[string]string{}, Body: resp.Binary}
	case resp.Body == nil:
		a = Answer{Status: resp.StatusCode, Headers: map[string]string{}}
	default:
		a = valueAnswer(resp.StatusCode, resp.Body)
	}
	for k, v := range resp.Headers {
		a.Headers[k] = v
	}
	if a.Status == 0 {
		a.Status = 200
	}
	return a
}
