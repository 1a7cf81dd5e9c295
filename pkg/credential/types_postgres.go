package credential

import "github.com/flowmill/flowmill/pkg/nodes/postgres"

// postgresTypes are the SQL database credential types: postgres, as n8n 1.x defines it. SSH
// tunnels are refused when used (the fields stay so n8n credentials import unchanged).
var postgresTypes = []*Type{
	{
		Name: "postgres", DisplayName: "Postgres", DocumentationURL: "postgres",
		Icon: "node:n8n-nodes-base.postgres",
		Properties: []Property{
			{DisplayName: "Host", Name: "host", Type: "string", Default: "localhost"},
			{DisplayName: "Database", Name: "database", Type: "string", Default: "postgres"},
			{DisplayName: "User", Name: "user", Type: "string", Default: "postgres"},
			{DisplayName: "Password", Name: "password", Type: "string", TypeOptions: password, Default: ""},
			{DisplayName: "Maximum Number of Connections", Name: "maxConnections", Type: "number", Default: 100.0,
				Description: "Make sure this value times the number of workers you have is lower than the maximum number of connections your postgres instance allows."},
			{DisplayName: "Ignore SSL Issues (Insecure)", Name: "allowUnauthorizedCerts", Type: "boolean", Default: false,
				Description: "Whether to connect even if SSL certificate validation is not possible"},
			{DisplayName: "SSL", Name: "ssl", Type: "options", Default: "disable",
				Options:        []Option{{Name: "Allow", Value: "allow"}, {Name: "Disable", Value: "disable"}, {Name: "Require", Value: "require"}},
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"allowUnauthorizedCerts": {false}}}},
			{DisplayName: "Port", Name: "port", Type: "number", Default: 5432.0},
			{DisplayName: "SSH Tunnel", Name: "sshTunnel", Type: "boolean", Default: false},
		},
		Connect: postgres.Connect, TestedBy: []string{"n8n-nodes-base.postgres"},
	},
}
