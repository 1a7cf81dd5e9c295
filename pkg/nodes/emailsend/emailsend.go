// Package emailsend is the Send Email node (n8n's EmailSend, versions 1, 2 and 2.1): one
// message per input item over SMTP with the smtp credential, with text and/or HTML bodies,
// CC, BCC, Reply-To and attachments from binary properties. Each output item is the server's
// answer as nodemailer reports it.
package emailsend

import (
	"context"
	_ "embed"
	"errors"
	"strings"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/smtpsend"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed v1.json
var v1JSON []byte

//go:embed v2.json
var v2JSON []byte

// TypeV1 returns version 1 for registration.
func TypeV1() nodes.Type { return nodes.Define(v1JSON, nodes.KindAction, execute) }

// TypeV2 returns versions 2 and 2.1 for registration.
func TypeV2() nodes.Type { return nodes.Define(v2JSON, nodes.KindAction, execute) }

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	version := ex.TypeVersion()
	out := make([]workflow.Item, 0, len(items))
	for i := range items {
		json, err := sendItem(ctx, ex, items[i], i, version)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if ex.ContinueOnFail() {
				out = append(out, workflow.Item{JSON: workflow.ObjectOf("error", err.Error()), PairedItem: &workflow.PairedItems{{Item: i}}})
				continue
			}
			return nil, nodeError(err, i, version)
		}
		out = append(out, workflow.Item{JSON: json, PairedItem: &workflow.PairedItems{{Item: i}}})
	}
	return [][]workflow.Item{out}, nil
}

func sendItem(ctx context.Context, ex *nodes.Execution, item workflow.Item, i int, version float64) (*workflow.Object, error) {
	if version >= 2 {
		op, err := ex.ParamString("operation", i)
		if err != nil {
			return nil, err
		}
		if op != "send" {
			return nil, nodes.Errorf(i, "The operation %q is not supported", op)
		}
	}
	str := func(name string) (string, error) { return ex.ParamString(name, i) }
	m := &email{}
	var err error
	if m.from, err = str("fromEmail"); err != nil {
		return nil, err
	}
	if m.to, err = str("toEmail"); err != nil {
		return nil, err
	}
	if m.subject, err = str("subject"); err != nil {
		return nil, err
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return nil, err
	}
	opt := func(k string) string { return jsv.ToString(jsv.Or(options[k], "")) }
	m.replyTo = opt("replyTo")
	var attachments string
	if version < 2 {
		if m.cc, err = str("ccEmail"); err != nil {
			return nil, err
		}
		if m.bcc, err = str("bccEmail"); err != nil {
			return nil, err
		}
		text, err := str("text")
		if err != nil {
			return nil, err
		}
		html, err := str("html")
		if err != nil {
			return nil, err
		}
		// nodemailer leaves out an empty body.
		if text != "" {
			m.text = &text
		}
		if html != "" {
			m.html = &html
		}
		if attachments, err = str("attachments"); err != nil {
			return nil, err
		}
	} else {
		m.cc, m.bcc = opt("ccEmail"), opt("bccEmail")
		attachments = opt("attachments")
		m.relatedWhenHTML = true
		format, err := str("emailFormat")
		if err != nil {
			return nil, err
		}
		if format == "text" || format == "both" {
			text, err := str("text")
			if err != nil {
				return nil, err
			}
			m.text = &text
		}
		if format == "html" || format == "both" {
			html, err := str("html")
			if err != nil {
				return nil, err
			}
			m.html = &html
		}
		appendAttribution := version >= 2.1
		if v, ok := options["appendAttribution"].(bool); ok {
			appendAttribution = v
		}
		if appendAttribution {
			attribute(m, format)
		}
		if m.text != nil && *m.text == "" {
			m.text = nil
		}
		if m.html != nil && *m.html == "" {
			m.html = nil
		}
	}
	if strings.TrimSpace(attachments) != "" && item.Binary != nil {
		for _, name := range strings.Split(attachments, ",") {
			name = strings.TrimSpace(name)
			bin, ok := item.Binary[name]
			if !ok {
				if version < 2 {
					continue
				}
				return nil, nodes.Errorf(i, "This operation expects the node's input data to contain a binary file '%s', but none was found [item %d]", name, i)
			}
			content, err := nodes.BinaryBytes(bin)
			if err != nil {
				return nil, err
			}
			fileName := bin.FileName
			if fileName == "" {
				fileName = "unknown"
			}
			a := attachment{fileName: fileName, content: content}
			if version >= 2 {
				a.cid = name
			}
			m.attachments = append(m.attachments, a)
		}
	}
	creds, err := ex.Credentials(ctx, "smtp")
	if err != nil {
		return nil, err
	}
	s := smtpsend.ServerOf(creds)
	s.Insecure, _ = options["allowUnauthorizedCerts"].(bool)
	policy := egress.PolicyOf(ex.HTTPClient())
	if policy == nil {
		return nil, errors.New("the instance's HTTP client does not apply the egress policy")
	}
	m.prepare(ex.Now())
	info, err := smtpsend.Deliver(ctx, policy, s, m.envelopeFrom, m.envelopeTo, m.build())
	if err != nil {
		return nil, err
	}
	return workflow.ObjectOf(
		"accepted", strings2any(info.Accepted),
		"rejected", strings2any(info.Rejected),
		"ehlo", strings2any(info.EHLO),
		"envelopeTime", float64(info.EnvelopeTime),
		"messageTime", float64(info.MessageTime),
		"messageSize", float64(info.MessageSize),
		"response", info.Response,
		"envelope", workflow.ObjectOf("from", m.envelopeFrom, "to", strings2any(m.envelopeTo)),
		"messageId", m.messageID,
	), nil
}

// attribute appends the "sent automatically" line where n8n appends its own, naming Flowmill
// and linking nowhere: to the HTML when there is HTML, else to the text.
func attribute(m *email, format string) {
	const phrase = "This email was sent automatically with Flowmill"
	if format == "html" || (format == "both" && m.html != nil && *m.html != "") {
		html := "\n\t\t\t\t\t" + deref(m.html) + "\n\t\t\t\t\t<br>\n\t\t\t\t\t<br>\n\t\t\t\t\t---\n\t\t\t\t\t<br>\n\t\t\t\t\t<em>" +
			phrase + "</em>\n\t\t\t\t\t"
		m.html = &html
		return
	}
	text := deref(m.text) + "\n\n---\n" + phrase
	m.text = &text
}

// deref is a body's text; none reads "undefined", as in JavaScript's template strings.
func deref(s *string) string {
	if s == nil {
		return "undefined"
	}
	return *s
}

func strings2any(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

// commonErrors are the messages n8n's NodeApiError gives failures whose code, or message,
// names one of these, in the order n8n looks.
var commonErrors = [][2]string{
	{"ECONNREFUSED", "The service refused the connection - perhaps it is offline"},
	{"ECONNRESET", "The connection to the server was closed unexpectedly, perhaps it is offline. You can retry the request immediately or wait and retry later."},
	{"ENOTFOUND", "The connection cannot be established, this usually occurs due to an incorrect host (domain) value"},
	{"ETIMEDOUT", "The connection timed out, consider setting the 'Retry on Fail' option in the node settings"},
	{"EADDRNOTAVAIL", "The address is not available, ensure that you have the right IP address"},
	{"ECONNABORTED", "The connection was aborted, perhaps the server is offline"},
	{"EHOSTUNREACH", "The host is unreachable, perhaps the server is offline"},
	{"EAI_AGAIN", "The DNS server returned an error, perhaps the server is offline"},
}

// descriptive is n8n's wording of a failure with this code and message; false when it has none.
func descriptive(code, msg string) (string, bool) {
	for _, e := range commonErrors {
		if e[0] == code {
			return e[1], true
		}
	}
	for _, e := range commonErrors {
		if strings.Contains(strings.ToUpper(msg), e[0]) {
			return e[1], true
		}
	}
	return "", false
}

// nodeError is the run's error: version 1 fails with nodemailer's message; version 2 wraps it
// as n8n's NodeApiError, which words network failures by their code and keeps nodemailer's
// message as the description.
func nodeError(err error, i int, version float64) error {
	var ne *nodes.Error
	if errors.As(err, &ne) {
		return err
	}
	if re, ok := egress.Refusal(err); ok {
		return &nodes.Error{Message: re.Error(), ItemIndex: i, Cause: err}
	}
	e := &nodes.Error{Message: err.Error(), ItemIndex: i, Cause: err}
	var se *smtpsend.Error
	if version >= 2 {
		e.Name = "NodeApiError"
		if errors.As(err, &se) {
			if msg, ok := descriptive(se.Code, se.Msg); ok {
				e.Message, e.Description = msg, se.Msg
			}
		}
	}
	return e
}
