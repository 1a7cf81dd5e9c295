package credential

import (
	"context"

	"github.com/flowmill/flowmill/pkg/egress"

	"github.com/flowmill/flowmill/pkg/nodes/ftp"
	"github.com/flowmill/flowmill/pkg/nodes/ssh"
)

// keyText is how private keys are entered: a secret over several lines.
var keyText = map[string]any{"password": true, "rows": 4}

// transferTypes are the credential types of the FTP and SSH nodes, with n8n's definitions. They
// are tested by logging in, as the nodes' connection tests in n8n do.
var transferTypes = []*Type{
	{
		Name: "ftp", DisplayName: "FTP", DocumentationURL: "ftp", TestedBy: testedByFTP, Connect: connectFTP("ftp"),
		Properties: []Property{
			{DisplayName: "Host", Name: "host", Type: "string", Default: "", Required: true, Placeholder: "localhost"},
			{DisplayName: "Port", Name: "port", Type: "number", Default: 21, Required: true},
			{DisplayName: "Username", Name: "username", Type: "string", Default: ""},
			{DisplayName: "Password", Name: "password", Type: "string", TypeOptions: password, Default: ""},
		},
	},
	{
		Name: "sftp", DisplayName: "SFTP", DocumentationURL: "ftp", TestedBy: testedByFTP, Connect: connectFTP("sftp"),
		Properties: []Property{
			{DisplayName: "Host", Name: "host", Type: "string", Default: "", Required: true},
			{DisplayName: "Port", Name: "port", Type: "number", Default: 22, Required: true},
			{DisplayName: "Username", Name: "username", Type: "string", Default: "", Required: true},
			{DisplayName: "Password", Name: "password", Type: "string", TypeOptions: password, Default: ""},
			{DisplayName: "Private Key", Name: "privateKey", Type: "string", TypeOptions: keyText, Default: "",
				Description: "String that contains a private key for either key-based or hostbased user authentication (OpenSSH format)"},
			{DisplayName: "Passphrase", Name: "passphrase", Type: "string", TypeOptions: password, Default: "",
				Description: "For an encrypted private key, this is the passphrase used to decrypt it"},
		},
	},
	{
		Name: "sshPassword", DisplayName: "SSH Password", DocumentationURL: "ssh", TestedBy: testedBySSH, Connect: connectSSH,
		Properties: []Property{
			{DisplayName: "Host", Name: "host", Type: "string", Default: "", Required: true, Placeholder: "localhost"},
			{DisplayName: "Port", Name: "port", Type: "number", Default: 22, Required: true},
			{DisplayName: "Username", Name: "username", Type: "string", Default: ""},
			{DisplayName: "Password", Name: "password", Type: "string", TypeOptions: password, Default: ""},
		},
	},
	{
		Name: "sshPrivateKey", DisplayName: "SSH Private Key", DocumentationURL: "ssh", TestedBy: testedBySSH, Connect: connectSSH,
		Properties: []Property{
			{DisplayName: "Host", Name: "host", Type: "string", Default: "", Required: true, Placeholder: "localhost"},
			{DisplayName: "Port", Name: "port", Type: "number", Default: 22, Required: true},
			{DisplayName: "Username", Name: "username", Type: "string", Default: ""},
			{DisplayName: "Private Key", Name: "privateKey", Type: "string", TypeOptions: keyText, Default: "", Required: true,
				Description: "Private key in OpenSSH format. Paste the full key including the `-----BEGIN ... PRIVATE KEY-----` and `-----END ... PRIVATE KEY-----` lines."},
			{DisplayName: "Passphrase", Name: "passphrase", Type: "string", TypeOptions: password, Default: "",
				Description: "Passphase used to create the key, if no passphase was used leave empty"},
		},
	},
}

var (
	testedByFTP = []string{"n8n-nodes-base.ftp"}
	testedBySSH = []string{"n8n-nodes-base.ssh"}
)

// The nodes dial through a run's HTTP client's policy; a client of the test's policy stands in.

func connectFTP(credType string) func(context.Context, map[string]any, *egress.Policy) error {
	return func(ctx context.Context, data map[string]any, policy *egress.Policy) error {
		return ftp.TestConnection(ctx, credType, data, policy.Client(egress.Options{}))
	}
}

func connectSSH(ctx context.Context, data map[string]any, policy *egress.Policy) error {
	return ssh.TestConnection(ctx, data, policy.Client(egress.Options{}))
}
