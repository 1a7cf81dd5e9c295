package credential

// mailTypes are the credential types of the mail nodes (Send Email), as n8n 1.x defines them.
var mailTypes = []*Type{
	{
		Name: "smtp", DisplayName: "SMTP", DocumentationURL: "smtp", Icon: "node:n8n-nodes-base.emailSend",
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
