package versioncheck

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/egress"
)

// versionsJSON is an answer as n8n's versions endpoint gives it: the running version and the
// releases after it, plus entries the check must not take for newer ones.
const versionsJSON = `[
	{"name":"1.3.0","createdAt":"2026-10-01T10:00:00.000Z","description":"Faster editor","documentationUrl":"https://docs.example.com/1.3.0",
	 "hasBreakingChange":false,"hasSecurityFix":false,"hasSecurityIssue":false,
	 "nodes":[{"name":"n8n-nodes-base.brandNew","displayName":"Brand New","iconData":{"type":"file","fileBuffer":"data:image/svg+xml;base64,AAAA"}}]},
	{"name":"1.2.0","createdAt":"2026-09-01T10:00:00.000Z","description":"Running one","hasSecurityIssue":true,"securityIssueFixVersion":"1.2.1","nodes":[]},
	{"name":"1.10.0","createdAt":"2026-11-01T10:00:00.000Z","description":"Fixes a token leak","hasSecurityFix":true,"hasBreakingChange":true,"nodes":[]},
	{"name":"1.1.9","createdAt":"2026-08-01T10:00:00.000Z","description":"Older","nodes":[]},
	{"name":"next","createdAt":"2026-11-02T10:00:00.000Z","description":"Not a version","nodes":[]}
]`

type call struct{ path, instanceID string }

// versionsServer answers with status and body and sends what it was asked on the channel.
func versionsServer(t *testing.T, status int, body string) (*httptest.Server, chan call) {
	calls := make(chan call, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls <- call{r.URL.Path, r.Header.Get(InstanceIDHeader)}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, calls
}

func newChecker(t *testing.T, policy *egress.Policy, endpoint string, timeout time.Duration) *Checker {
	c, err := New(Config{Client: policy.Client(egress.Options{}), Endpoint: endpoint, InstanceID: "instance-1", Timeout: timeout})
	require.NoError(t, err)
	return c
}

func TestCheckNewerVersions(t *testing.T) {
	srv, calls := versionsServer(t, 200, versionsJSON)
	c := newChecker(t, egress.New(nil, nil), srv.URL+"/api/versions/", 0)

	res, err := c.Check(context.Background(), "1.2.0")
	require.NoError(t, err)
	require.Equal(t, call{"/api/versions/1.2.0", "instance-1"}, <-calls)
	require.NotNil(t, res.Current)
	require.Equal(t, "1.2.1", res.Current.SecurityIssueFixVersion)
	names := []string{}
	for _, v := range res.Newer {
		names = append(names, v.Name)
	}
	require.Equal(t, []string{"1.10.0", "1.3.0"}, names, "newer ones only, newest first, by version order")
	require.True(t, res.Newer[0].HasSecurityFix)
	require.True(t, res.Newer[0].HasBreakingChange)
	require.Equal(t, "2026-10-01T10:00:00.000Z", res.Newer[1].CreatedAt)
	require.Equal(t, []Node{{Name: "n8n-nodes-base.brandNew", DisplayName: "Brand New"}}, res.Newer[1].Nodes)

	res, err = c.Check(context.Background(), "1.10.0")
	require.NoError(t, err)
	require.Empty(t, res.Newer, "the latest release has no newer ones")
	require.Equal(t, "1.10.0", res.Current.Name)
	<-calls
}

func TestCheckFailures(t *testing.T) {
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-block:
		}
	}))
	t.Cleanup(slow.Close)
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	notFound, _ := versionsServer(t, 404, `{"message":"unknown version"}`)
	notJSON, _ := versionsServer(t, 200, `<html>maintenance</html>`)
	object, _ := versionsServer(t, 200, `{"name":"1.3.0"}`)
	long, _ := versionsServer(t, 200, `[`+strings.Repeat(`{"name":"1.3.0","nodes":[]},`, MaxBytes/20)+`{"name":"1.3.0"}]`)
	ok, _ := versionsServer(t, 200, versionsJSON)
	loopbackDenied := egress.New(nil, []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")})

	for _, tt := range []struct {
		name, endpoint, running string
		policy                  *egress.Policy
		wantErr                 string
	}{
		{"unreachable", gone.URL + "/", "1.2.0", nil, "connect"},
		{"timed out", slow.URL + "/", "1.2.0", nil, ""},
		{"not 200", notFound.URL + "/", "1.2.0", nil, "answered 404"},
		{"not JSON", notJSON.URL + "/", "1.2.0", nil, "not a JSON array of versions"},
		{"not an array", object.URL + "/", "1.2.0", nil, "not a JSON array of versions"},
		{"too long", long.URL + "/", "1.2.0", nil, "longer than 1048576 bytes"},
		{"refused by the egress policy", ok.URL + "/", "1.2.0", loopbackDenied, "not allowed (FLOWMILL_EGRESS_DENY)"},
		{"running a development build", ok.URL + "/", "dev", nil, ErrUnknownVersion.Error()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			policy := tt.policy
			if policy == nil {
				policy = egress.New(nil, nil)
			}
			c := newChecker(t, policy, tt.endpoint, 300*time.Millisecond)
			_, err := c.Check(context.Background(), tt.running)
			if tt.wantErr == "" {
				// The client's timeout or the context's deadline, whichever fires first.
				var netErr net.Error
				require.True(t, errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()), "%v", err)
			} else {
				require.ErrorContains(t, err, tt.wantErr)
			}
			if tt.policy != nil {
				_, refused := egress.Refusal(err)
				require.True(t, refused, "%v", err)
			}
		})
	}
}

func TestNewNeedsClientAndEndpoint(t *testing.T) {
	_, err := New(Config{Endpoint: "https://versions.example.com/"})
	require.ErrorContains(t, err, "client")
	_, err = New(Config{Client: egress.New(nil, nil).Client(egress.Options{})})
	require.ErrorContains(t, err, "endpoint")
}
