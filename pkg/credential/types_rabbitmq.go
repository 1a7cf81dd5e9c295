package credential

import (
	"context"

	"github.com/flowmill/flowmill/pkg/amqpconn"
	"github.com/flowmill/flowmill/pkg/egress"
)

// rabbitmqTypes are the message-broker credential types: rabbitmq, as n8n 1.x defines it (the
// RabbitMQ node reads it).
var rabbitmqTypes = []*Type{
	{
		Name: "rabbitmq", DisplayName: "RabbitMQ", DocumentationURL: "rabbitmq",
		Icon: "node:n8n-nodes-base.rabbitmq",
		Properties: []Property{
			{DisplayName: "Hostname", Name: "hostname", Type: "string", Default: "", Placeholder: "localhost"},
			{DisplayName: "Port", Name: "port", Type: "number", Default: 5672.0},
			{DisplayName: "User", Name: "username", Type: "string", Default: "", Placeholder: "guest"},
			{DisplayName: "Password", Name: "password", Type: "string", TypeOptions: password, Default: "", Placeholder: "guest"},
			{DisplayName: "Vhost", Name: "vhost", Type: "string", Default: "/"},
			{DisplayName: "SSL", Name: "ssl", Type: "boolean", Default: false},
			{DisplayName: "Passwordless", Name: "passwordless", Type: "boolean", Default: true,
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"ssl": {true}}},
				Description:    "Passwordless connection with certificates (SASL mechanism EXTERNAL)"},
			{DisplayName: "CA Certificates", Name: "ca", Type: "string", TypeOptions: password, Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"ssl": {true}}},
				Description:    "SSL CA Certificates to use"},
			{DisplayName: "Client Certificate", Name: "cert", Type: "string", TypeOptions: password, Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"ssl": {true}, "passwordless": {true}}},
				Description:    "SSL Client Certificate to use"},
			{DisplayName: "Client Key", Name: "key", Type: "string", TypeOptions: password, Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"ssl": {true}, "passwordless": {true}}},
				Description:    "SSL Client Key to use"},
			{DisplayName: "Passphrase", Name: "passphrase", Type: "string", TypeOptions: password, Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"ssl": {true}, "passwordless": {true}}},
				Description:    "SSL passphrase to use"},
		},
		Connect: testRabbitMQ, TestedBy: []string{"n8n-nodes-base.rabbitmq"},
	},
}

// testRabbitMQ opens a connection and closes it, as n8n's rabbitmqConnectionTest does.
func testRabbitMQ(ctx context.Context, data map[string]any, policy *egress.Policy) error {
	conn, err := amqpconn.Dial(ctx, policy, amqpconn.FromCredential(data))
	if err != nil {
		return err
	}
	return conn.Close()
}
