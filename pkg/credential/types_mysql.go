package credential

import "github.com/flowmill/flowmill/pkg/mysqlconn"

// mysqlTypes are the MySQL credential type, mySql, as n8n 1.x defines it (SSH tunnel fields
// included so n8n exports import; a credential with the tunnel on fails with a clear error).
var mysqlTypes = []*Type{
	{
		Name: "mySql", DisplayName: "MySQL", DocumentationURL: "mySql",
		Icon: "node:n8n-nodes-base.mySql",
		Properties: []Property{
			{DisplayName: "Host", Name: "host", Type: "string", Default: "localhost"},
			{DisplayName: "Database", Name: "database", Type: "string", Default: "mysql"},
			{DisplayName: "User", Name: "user", Type: "string", Default: "mysql"},
			{DisplayName: "Password", Name: "password", Type: "string", TypeOptions: password, Default: ""},
			{DisplayName: "Port", Name: "port", Type: "number", Default: 3306.0},
			{DisplayName: "Connect Timeout", Name: "connectTimeout", Type: "number", Default: 10000.0,
				Description: "The milliseconds before a timeout occurs during the initial connection to the MySQL server"},
			{DisplayName: "SSL", Name: "ssl", Type: "boolean", Default: false},
			{DisplayName: "CA Certificate", Name: "caCertificate", Type: "string", TypeOptions: password, Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"ssl": {true}}}},
			{DisplayName: "Client Private Key", Name: "clientPrivateKey", Type: "string", TypeOptions: password, Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"ssl": {true}}}},
			{DisplayName: "Client Certificate", Name: "clientCertificate", Type: "string", TypeOptions: password, Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"ssl": {true}}}},
			{DisplayName: "SSH Tunnel", Name: "sshTunnel", Type: "boolean", Default: false},
			{DisplayName: "SSH Authenticate with", Name: "sshAuthenticateWith", Type: "options", Default: "password",
				Options:        []Option{{Name: "Password", Value: "password"}, {Name: "Private Key", Value: "privateKey"}},
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"sshTunnel": {true}}}},
			{DisplayName: "SSH Host", Name: "sshHost", Type: "string", Default: "localhost",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"sshTunnel": {true}}}},
			{DisplayName: "SSH Port", Name: "sshPort", Type: "number", Default: 22.0,
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"sshTunnel": {true}}}},
			{DisplayName: "SSH User", Name: "sshUser", Type: "string", Default: "root",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"sshTunnel": {true}}}},
			{DisplayName: "SSH Password", Name: "sshPassword", Type: "string", TypeOptions: password, Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"sshTunnel": {true}, "sshAuthenticateWith": {"password"}}}},
			{DisplayName: "Private Key", Name: "privateKey", Type: "string", TypeOptions: map[string]any{"rows": 4, "password": true}, Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"sshTunnel": {true}, "sshAuthenticateWith": {"privateKey"}}}},
			{DisplayName: "Passphrase", Name: "passphrase", Type: "string", TypeOptions: password, Default: "",
				Description:    "Passphrase used to create the key, if no passphrase was used leave empty",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"sshTunnel": {true}, "sshAuthenticateWith": {"privateKey"}}}},
		},
		Connect: mysqlconn.Test, TestedBy: []string{"n8n-nodes-base.mySql"},
	},
}
