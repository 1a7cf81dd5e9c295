package credential

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
	},
}
