// Package mqttconn opens MQTT connections from an n8n "mqtt" credential, dialing through the
// instance's egress policy. The MQTT node, the MQTT Trigger and the credential test share it.
package mqttconn

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/flowmill/flowmill/pkg/egress"
)

// ConnectTimeout bounds dialing and the CONNECT handshake.
const ConnectTimeout = 15 * time.Second

// Settings are the fields of an mqtt credential.
type Settings struct {
	Protocol, Host     string
	Port               int
	Username, Password string
	Clean              bool
	ClientID           string
	SSL                bool
	CA, Cert, Key      string
	RejectUnauthorized bool
}

// FromCredential reads the credential's data with n8n's defaults.
func FromCredential(data map[string]any) Settings {
	s := Settings{Protocol: str(data["protocol"]), Host: str(data["host"]), Username: str(data["username"]),
		Password: str(data["password"]), ClientID: str(data["clientId"]), CA: str(data["ca"]),
		Cert: str(data["cert"]), Key: str(data["key"]), Clean: true}
	if s.Protocol == "" {
		s.Protocol = "mqtt"
	}
	s.Port = 1883
	switch p := data["port"].(type) {
	case float64:
		s.Port = int(p)
	case int:
		s.Port = p
	case string:
		if n, err := strconv.Atoi(p); err == nil {
			s.Port = n
		}
	}
	if v, ok := data["clean"].(bool); ok {
		s.Clean = v
	}
	s.SSL, _ = data["ssl"].(bool)
	s.RejectUnauthorized, _ = data["rejectUnauthorized"].(bool)
	return s
}

func str(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}

// Options configures a client from s; autoAck false leaves acknowledging QoS 1 and 2 messages
// to the handler (Message.Ack).
func Options(s Settings, policy *egress.Policy, autoAck bool) (*mqtt.ClientOptions, error) {
	if strings.TrimSpace(s.Host) == "" {
		return nil, errors.New("The MQTT host is not set")
	}
	var tlsc *tls.Config
	switch s.Protocol {
	case "mqtt":
	case "mqtts":
		tlsc = &tls.Config{ServerName: s.Host}
	default:
		return nil, fmt.Errorf("The protocol %q is not supported", s.Protocol)
	}
	if s.SSL {
		if tlsc == nil {
			tlsc = &tls.Config{ServerName: s.Host}
		}
		if err := addCerts(tlsc, s); err != nil {
			return nil, err
		}
	}
	clientID := s.ClientID
	if clientID == "" {
		b := make([]byte, 4)
		_, _ = rand.Read(b)
		clientID = "mqttjs_" + hex.EncodeToString(b)
	}
	addr := net.JoinHostPort(s.Host, strconv.Itoa(s.Port))
	o := mqtt.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(clientID).SetCleanSession(s.Clean).
		SetConnectTimeout(ConnectTimeout).SetAutoReconnect(false).SetConnectRetry(false).
		SetAutoAckDisabled(!autoAck).SetOrderMatters(true)
	if s.Username != "" && s.Password != "" {
		o.SetUsername(s.Username).SetPassword(s.Password)
	}
	dialer := policy.Dialer(ConnectTimeout)
	o.SetCustomOpenConnectionFn(func(*url.URL, mqtt.ClientOptions) (net.Conn, error) {
		ctx, cancel := context.WithTimeout(context.Background(), ConnectTimeout)
		defer cancel()
		conn, err := dialer.DialContext(ctx, "tcp", addr)
		if err != nil || tlsc == nil {
			return conn, err
		}
		tc := tls.Client(conn, tlsc)
		if err := tc.HandshakeContext(ctx); err != nil {
			conn.Close()
			return nil, err
		}
		return tc, nil
	})
	return o, nil
}

func addCerts(c *tls.Config, s Settings) error {
	c.InsecureSkipVerify = !s.RejectUnauthorized
	if strings.TrimSpace(s.CA) != "" {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM([]byte(s.CA)) {
			return errors.New("The CA certificates could not be read")
		}
		c.RootCAs = pool
	}
	if strings.TrimSpace(s.Cert) != "" || strings.TrimSpace(s.Key) != "" {
		pair, err := tls.X509KeyPair([]byte(s.Cert), []byte(s.Key))
		if err != nil {
			return fmt.Errorf("The client certificate could not be read: %v", err)
		}
		c.Certificates = []tls.Certificate{pair}
	}
	return nil
}

// Connect opens a client on o, honouring ctx.
func Connect(ctx context.Context, o *mqtt.ClientOptions) (mqtt.Client, error) {
	c := mqtt.NewClient(o)
	if err := wait(ctx, c.Connect()); err != nil {
		c.Disconnect(0)
		return nil, err
	}
	return c, nil
}

// Wait waits for a token, failing when ctx ends first.
func Wait(ctx context.Context, t mqtt.Token) error { return wait(ctx, t) }

func wait(ctx context.Context, t mqtt.Token) error {
	select {
	case <-t.Done():
		return t.Error()
	case <-ctx.Done():
		return ctx.Err()
	}
}
