package credential

import "github.com/flowmill/flowmill/pkg/nodes/postgres"

// postgresTypes are the SQL database credential types: postgres, as n8n 1.x defines it. SSH
// tunnels are refused when used (the fields stay so n8n credentials import unchanged).
var sshShown = &DisplayOptions{Show: map[string][]any{"sshTunnel": {true}}}

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
			{DisplayName: "SSH Authenticate with", Name: "sshAuthenticateWith", Type: "options", Default: "password",
				Options:        []Option{{Name: "Password", Value: "password"}, {Name: "Private Key", Value: "privateKey"}},
				DisplayOptions: sshShown},
			{DisplayName: "SSH Host", Name: "sshHost", Type: "string", Default: "localhost", DisplayOptions: sshShown},
			{DisplayName: "SSH Port", Name: "sshPort", Type: "number", Default: 22.0, DisplayOptions: sshShown},
			{DisplayName: "SSH User", Name: "sshUser", Type: "string", Default: "root", DisplayOptions: sshShown},
			{DisplayName: "SSH Password", Name: "sshPassword", Type: "string", TypeOptions: password, Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"sshTunnel": {true}, "sshAuthenticateWith": {"password"}}}},
			{DisplayName: "Private Key", Name: "privateKey", Type: "string", TypeOptions: map[string]any{"rows": 4, "password": true}, Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"sshTunnel": {true}, "sshAuthenticateWith": {"privateKey"}}}},
			{DisplayName: "Passphrase", Name: "passphrase", Type: "string", TypeOptions: password, Default: "",
				Description:    "Passphrase used to create the key, if no passphrase was used leave empty",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"sshTunnel": {true}, "sshAuthenticateWith": {"privateKey"}}}},
		},
		Connect: postgres.Connect, TestedBy: []string{"n8n-nodes-base.postgres"},
	},
}
