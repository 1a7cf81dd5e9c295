package credential

import (
	"context"
	"errors"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/smtpsend"
)

// mailTypes are the credential types of the mail nodes (Send Email), as n8n 1.x defines them.
var mailTypes = []*Type{
	{
		Name: "smtp", DisplayName: "SMTP", DocumentationURL: "smtp", Icon: "node:n8n-nodes-base.emailSend",
		TestedBy: []string{"n8n-nodes-base.emailSend"}, Connect: testSMTP,
		Properties: []Property{
			{DisplayName: "User", Name: "user", Type: "string", Default: ""},
			{DisplayName: "Password", Name: "password", Type: "string", TypeOptions: password, Default: ""},
			{DisplayName: "Host", Name: "host", Type: "string", Default: ""},
			{DisplayName: "Port", Name: "port", Type: "number", Default: 465},
			{DisplayName: "SSL/TLS", Name: "secure", Type: "boolean", Default: true},
			{DisplayName: "Disable STARTTLS", Name: "disableStartTls", Type: "boolean", Default: false,
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"secure": {false}}}},
			{DisplayName: "Client Host Name", Name: "hostName", Type: "string", Default: "",
				Description: "The hostname of the client, used for identifying to the server"},
		},
	},
}

// testSMTP connects and logs in as Send Email does, then quits (n8n's smtpConnectionTest); a
// failure answers the mail library's message.
func testSMTP(ctx context.Context, data map[string]any, policy *egress.Policy) error {
	err := smtpsend.Verify(ctx, policy, smtpsend.ServerOf(data))
	var me *smtpsend.Error
	if errors.As(err, &me) {
		return errors.New(me.Msg)
	}
	return err
}
