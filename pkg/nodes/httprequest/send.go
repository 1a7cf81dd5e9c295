package httprequest

import (
	"github.com/flowmill/flowmill/pkg/workflow"

	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/httpauth"
)

// response is what a request answered.
type response struct {
	status     int
	statusText string
	header     http.Header
	body       []byte
	url        string
	finalURL   string // after redirects
}

// statusError is a response outside 2xx (n8n's StatusCodeError).
type statusError struct {
	status int
	body   any // parsed JSON, or the text
	res    *response
	// paginated marks the error pagination raises for an answer outside 2xx.
	paginated bool
}

func (e *statusError) Error() string {
	b, _ := json.Marshal(e.body)
	return fmt.Sprintf("%d - %s", e.status, b)
}

// defaultMaxRedirects is the redirect limit of n8n's request helper (follow-redirects' default).
const defaultMaxRedirects = 21

// encodeBody serializes the request body and returns it with its content type.
func (r *request) encodeBody() ([]byte, string, error) {
	switch r.kind {
	case "form":
		if len(r.form) == 0 {
			return nil, "", nil
		}
		return []byte(stringifyQS(r.form, r.arrayFormat)), "application/x-www-form-urlencoded", nil
	case "multipart":
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		for _, p := range r.multipart {
			h := textproto.MIMEHeader{}
			disp := fmt.Sprintf(`form-data; name="%s"`, escapeQuotes(p.name))
			if p.file {
				name := p.fileName
				if name == "" {
					name = p.name
				}
				disp += fmt.Sprintf(`; filename="%s"`, escapeQuotes(name))
				ct := p.contentType
				if ct == "" {
					ct = "application/octet-stream"
				}
				h.Set("Content-Type", ct)
			}
			h.Set("Content-Disposition", disp)
			pw, err := w.CreatePart(h)
			if err != nil {
				return nil, "", err
			}
			if _, err := pw.Write(p.value); err != nil {
				return nil, "", err
			}
		}
		if err := w.Close(); err != nil {
			return nil, "", err
		}
		return buf.Bytes(), w.FormDataContentType(), nil
	}
	if !r.hasBody {
		return nil, "", nil
	}
	if b, ok := r.body.([]byte); ok {
		return b, "", nil
	}
	if s, ok := r.body.(string); ok && !r.json {
		return []byte(s), "", nil
	}
	b, err := json.Marshal(r.body)
	if err != nil {
		return nil, "", err
	}
	// An object body is JSON whether or not the answer is parsed as JSON.
	if _, isString := r.body.(string); r.json || r.kind == "json" && !isString {
		return b, "application/json", nil
	}
	return b, "", nil
}

func escapeQuotes(s string) string { return strings.ReplaceAll(s, `"`, `\"`) }

// target is the request URL with the query parameters added to any it already has.
func (r *request) target() (*url.URL, error) {
	u, err := url.Parse(r.url)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("Invalid URL: %s", r.url)
	}
	if q := stringifyQS(r.qs, r.arrayFormat); q != "" {
		if u.RawQuery != "" {
			u.RawQuery += "&"
		}
		u.RawQuery += q
	}
	return u, nil
}

func send(ctx context.Context, base *http.Client, r *request, auth *httpauth.Auth) (*response, error) {
	u, err := r.target()
	if err != nil {
		return nil, err
	}
	body, contentType, err := r.encodeBody()
	if err != nil {
		return nil, err
	}
	var form url.Values
	if r.kind == "form" {
		form, _ = url.ParseQuery(string(body))
	}
	client, err := r.client(base)
	if err != nil {
		return nil, err
	}
	defer client.CloseIdleConnections()
	newReq := func() (*http.Request, error) {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, r.method, u.String(), rd)
		if err != nil {
			return nil, err
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		for _, h := range r.headers {
			if h.key == "" {
				continue
			}
			req.Header.Set(h.key, jsString(h.val))
		}
		return req, nil
	}
	res, err := auth.Do(client, form, newReq)
	if err != nil {
		return nil, requestError(err, r)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, requestError(err, r)
	}
	out := &response{status: res.StatusCode, statusText: strings.TrimSpace(strings.TrimPrefix(res.Status, fmt.Sprint(res.StatusCode))),
		header: res.Header, body: data, url: u.String(), finalURL: res.Request.URL.String()}
	if (res.StatusCode < 200 || res.StatusCode >= 300) && !r.ignoreStatus {
		return nil, &statusError{status: res.StatusCode, body: parseBody(data), res: out}
	}
	return out, nil
}

// parseBody reads an error body as JSON when it is JSON, else as text.
func parseBody(b []byte) any {
	if v, err := workflow.DecodeJSONValue(b); err == nil {
		return v
	}
	return string(b)
}

// client is the node's client for one request: the instance's egress policy with the node's
// timeout, "Ignore SSL Issues" and proxy options and its redirect rules. A proxy the node names
// does not get round the policy: its address is checked when dialed, and each target before the
// request is handed to it.
func (r *request) client(base *http.Client) (*http.Client, error) {
	policy := egress.PolicyOf(base)
	if policy == nil {
		return nil, errors.New("the instance's HTTP client does not apply the egress policy")
	}
	o := egress.Options{Timeout: r.timeout, InsecureSkipVerify: r.insecure}
	if r.proxy != "" {
		if p, err := url.Parse(r.proxy); err == nil {
			o.Proxy = p
		}
	}
	follow := r.followAll
	if r.method == http.MethodGet || r.method == http.MethodHead {
		follow = r.followGet
	}
	return &http.Client{Transport: policy.Transport(o), CheckRedirect: func(_ *http.Request, via []*http.Request) error {
		if !follow {
			return http.ErrUseLastResponse
		}
		if len(via) > cmp.Or(r.maxRedirects, defaultMaxRedirects) {
			return errors.New("Maximum number of redirects exceeded")
		}
		return nil
	}}, nil
}

// requestError words transport failures like the request helper n8n uses; an address the
// egress policy refuses is named with the setting that decides.
func requestError(err error, r *request) error {
	if re, ok := egress.Refusal(err); ok {
		return re
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &networkError{"ECONNABORTED", fmt.Sprintf("timeout of %dms exceeded", r.timeout.Milliseconds())}
	}
	host := ""
	if u, perr := url.Parse(r.url); perr == nil {
		host = u.Host
		if u.Port() == "" {
			host = net.JoinHostPort(u.Hostname(), map[bool]string{true: "443", false: "80"}[u.Scheme == "https"])
		}
	}
	if c := classify(err, host); c != err {
		return c
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
