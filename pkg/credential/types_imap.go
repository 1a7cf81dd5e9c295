package credential

import (
	"context"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/imapconn"
)

// imapTypes are the mail-reading credential types: imap, as n8n 1.x defines it (the Email
// Trigger (IMAP) node reads it).
var imapTypes = []*Type{
	{
		Name: "imap", DisplayName: "IMAP", DocumentationURL: "imap",
		Icon: "node:n8n-nodes-base.emailReadImap",
		Properties: []Property{
			{DisplayName: "User", Name: "user", Type: "string", Default: ""},
			{DisplayName: "Password", Name: "password", Type: "string", TypeOptions: password, Default: ""},
			{DisplayName: "Host", Name: "host", Type: "string", Default: ""},
			{DisplayName: "Port", Name: "port", Type: "number", Default: 993.0},
			{DisplayName: "SSL/TLS", Name: "secure", Type: "boolean", Default: true},
			{DisplayName: "Allow Self-Signed Certificates", Name: "allowUnauthorizedCerts", Type: "boolean", Default: false,
				Description: "Whether to connect even if SSL certificate validation is not possible"},
		},
		Connect: testIMAP, TestedBy: []string{"n8n-nodes-base.emailReadImap"},
	},
}

// testIMAP logs in and lists the mailboxes, as n8n's imapConnectionTest does.
func testIMAP(ctx context.Context, data map[string]any, policy *egress.Policy) error {
	c, err := imapconn.Login(ctx, policy, imapconn.FromCredential(data))
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.List("", "*", nil).Collect(); err != nil {
		return imapconn.Message(err)
	}
	_ = c.Logout().Wait()
	return nil
}
