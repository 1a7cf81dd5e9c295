package credential

// webhookTypes are the credential types of the Webhook nodes: jwtAuth checks the bearer token of
// a Webhook call and signs the token Respond to Webhook answers with.
var webhookTypes = []*Type{
	{
		Name: "jwtAuth", DisplayName: "JWT Auth", DocumentationURL: "jwt", Icon: "node:n8n-nodes-base.webhook",
		Properties: []Property{
			{DisplayName: "Key Type", Name: "keyType", Type: "options", Default: "passphrase",
				Description: "Choose either the secret passphrase or PEM encoded public keys",
				Options:     []Option{{Name: "Passphrase", Value: "passphrase"}, {Name: "PEM Key", Value: "pemKey"}}},
			{DisplayName: "Secret", Name: "secret", Type: "string", TypeOptions: password, Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"keyType": {"passphrase"}}}},
			{DisplayName: "Private Key", Name: "privateKey", Type: "string", TypeOptions: password, Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"keyType": {"pemKey"}}}},
			{DisplayName: "Public Key", Name: "publicKey", Type: "string", TypeOptions: password, Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"keyType": {"pemKey"}}}},
			{DisplayName: "Algorithm", Name: "algorithm", Type: "options", Default: "HS256", Options: []Option{
				{Name: "HS256", Value: "HS256"}, {Name: "HS384", Value: "HS384"}, {Name: "HS512", Value: "HS512"},
				{Name: "RS256", Value: "RS256"}, {Name: "RS384", Value: "RS384"}, {Name: "RS512", Value: "RS512"},
				{Name: "ES256", Value: "ES256"}, {Name: "ES384", Value: "ES384"}, {Name: "ES512", Value: "ES512"},
				{Name: "PS256", Value: "PS256"}, {Name: "PS384", Value: "PS384"}, {Name: "PS512", Value: "PS512"},
				{Name: "none", Value: "none"}}},
		},
	},
}
