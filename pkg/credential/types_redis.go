package credential

import (
	"context"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/redisclient"
)

// redisTypes are the Redis credential types: redis, as n8n 1.x defines it (the Redis node
// reads it).
var redisTypes = []*Type{
	{
		Name: "redis", DisplayName: "Redis", DocumentationURL: "redis",
		Icon: "node:n8n-nodes-base.redis",
		Properties: []Property{
			{DisplayName: "Password", Name: "password", Type: "string", TypeOptions: password, Default: ""},
			{DisplayName: "User", Name: "user", Type: "string", Default: "", Hint: "Leave blank for password-only auth"},
			{DisplayName: "Host", Name: "host", Type: "string", Default: "localhost"},
			{DisplayName: "Port", Name: "port", Type: "number", Default: 6379.0},
			{DisplayName: "Database Number", Name: "database", Type: "number", Default: 0.0},
			{DisplayName: "SSL", Name: "ssl", Type: "boolean", Default: false},
			{DisplayName: "Disable TLS Verification (insecure)", Name: "disableTlsVerification", Type: "boolean", Default: false,
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"ssl": {true}}},
				Description:    "Whether to disable TLS certificate verification. Enable this to use self-signed certificates. WARNING: This makes the connection less secure."},
		},
		Connect: testRedis, TestedBy: []string{"n8n-nodes-base.redis"},
	},
}

// testRedis connects and sends PING, as n8n's redisConnectionTest does.
func testRedis(ctx context.Context, data map[string]any, policy *egress.Policy) error {
	return redisclient.Test(ctx, redisclient.FromCredential(data), policy)
}
