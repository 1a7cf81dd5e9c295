package egress_test

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/egress"
)

func networks(t *testing.T, list string) []netip.Prefix {
	t.Helper()
	p, err := egress.ParseNetworks(list)
	require.NoError(t, err)
	return p
}

func TestCheck(t *testing.T) {
	t.Parallel()
	const allowed = egress.Reason(0)
	cases := []struct {
		name         string
		allow, deny  string
		addr         string
		nodes, fetch egress.Reason // the default profile, the strict one
	}{
		{name: "public v4", addr: "93.184.216.34", nodes: allowed, fetch: allowed},
		{name: "public v6", addr: "2606:2800:220:1:248:1893:25c8:1946", nodes: allowed, fetch: allowed},
		{name: "metadata", addr: "169.254.169.254", nodes: egress.BuiltIn, fetch: egress.BuiltIn},
		{name: "link-local v4", addr: "169.254.1.1", nodes: egress.BuiltIn, fetch: egress.BuiltIn},
		{name: "link-local v6", addr: "fe80::1", nodes: egress.BuiltIn, fetch: egress.BuiltIn},
		{name: "link-local v6 with zone", addr: "fe80::1%eth0", nodes: egress.BuiltIn, fetch: egress.BuiltIn},
		{name: "aws metadata v6", addr: "fd00:ec2::254", nodes: egress.BuiltIn, fetch: egress.BuiltIn},
		{name: "gcp metadata v6", addr: "fd20:ce::254", nodes: egress.BuiltIn, fetch: egress.BuiltIn},
		{name: "alibaba metadata", addr: "100.100.100.200", nodes: egress.BuiltIn, fetch: egress.BuiltIn},
		{name: "unspecified v4", addr: "0.0.0.0", nodes: egress.BuiltIn, fetch: egress.BuiltIn},
		{name: "this network", addr: "0.1.2.3", nodes: egress.BuiltIn, fetch: egress.BuiltIn},
		{name: "unspecified v6", addr: "::", nodes: egress.BuiltIn, fetch: egress.BuiltIn},
		{name: "broadcast", addr: "255.255.255.255", nodes: egress.BuiltIn, fetch: egress.BuiltIn},
		{name: "mapped metadata", addr: "::ffff:169.254.169.254", nodes: egress.BuiltIn, fetch: egress.BuiltIn},
		{name: "nat64 metadata", addr: "64:ff9b::a9fe:a9fe", nodes: egress.BuiltIn, fetch: egress.BuiltIn},
		{name: "nat64 public", addr: "64:ff9b::5db8:d822", nodes: allowed, fetch: allowed},
		{name: "loopback v4", addr: "127.0.0.1", nodes: allowed, fetch: egress.Internal},
		{name: "loopback v4 elsewhere", addr: "127.0.0.2", nodes: allowed, fetch: egress.Internal},
		{name: "loopback v6", addr: "::1", nodes: allowed, fetch: egress.Internal},
		{name: "mapped loopback", addr: "::ffff:127.0.0.1", nodes: allowed, fetch: egress.Internal},
		{name: "private 10", addr: "10.1.2.3", nodes: allowed, fetch: egress.Internal},
		{name: "private 172.16", addr: "172.31.255.255", nodes: allowed, fetch: egress.Internal},
		{name: "next to 172.16/12", addr: "172.32.0.1", nodes: allowed, fetch: allowed},
		{name: "private 192.168", addr: "192.168.0.1", nodes: allowed, fetch: egress.Internal},
		{name: "mapped private", addr: "::ffff:10.0.0.1", nodes: allowed, fetch: egress.Internal},
		{name: "unique local v6", addr: "fd12:3456::1", nodes: allowed, fetch: egress.Internal},
		{name: "shared cgnat", addr: "100.64.0.1", nodes: allowed, fetch: egress.Internal},

		{name: "deny a public network", deny: "93.184.216.0/24", addr: "93.184.216.34", nodes: egress.Denied, fetch: egress.Denied},
		{name: "deny v4 also denies its mapped form", deny: "93.184.216.34", addr: "::ffff:93.184.216.34", nodes: egress.Denied, fetch: egress.Denied},
		{name: "deny written mapped", deny: "::ffff:10.0.0.0/104", addr: "10.9.9.9", nodes: egress.Denied, fetch: egress.Denied},
		{name: "deny v6", deny: "2001:db8::/32", addr: "2001:db8::1", nodes: egress.Denied, fetch: egress.Denied},
		{name: "allow opens loopback", allow: "127.0.0.1/32", addr: "127.0.0.1", nodes: allowed, fetch: allowed},
		{name: "allow is exact", allow: "127.0.0.1/32", addr: "127.0.0.2", nodes: allowed, fetch: egress.Internal},
		{name: "allow opens metadata", allow: "169.254.169.254", addr: "169.254.169.254", nodes: allowed, fetch: allowed},
		{name: "deny wins over allow", allow: "10.0.0.0/8", deny: "10.0.0.5", addr: "10.0.0.5", nodes: egress.Denied, fetch: egress.Denied},
		{name: "allow next to a deny", allow: "10.0.0.0/8", deny: "10.0.0.5", addr: "10.0.0.6", nodes: allowed, fetch: allowed},
		{name: "deny everything but an allow", allow: "93.184.216.34", deny: "0.0.0.0/0, ::/0", addr: "93.184.216.34", nodes: egress.Denied, fetch: egress.Denied},
		{name: "nat64 form of a denied v4", deny: "93.184.216.34", addr: "64:ff9b::5db8:d822", nodes: egress.Denied, fetch: egress.Denied},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := egress.New(networks(t, c.allow), networks(t, c.deny))
			for _, profile := range []struct {
				policy *egress.Policy
				want   egress.Reason
			}{{p, c.nodes}, {p.Strict(), c.fetch}} {
				err := profile.policy.Check(netip.MustParseAddr(c.addr))
				if profile.want == allowed {
					require.NoError(t, err)
					continue
				}
				re, ok := egress.Refusal(err)
				require.True(t, ok, "%s: want refusal %d, got %v", c.addr, profile.want, err)
				require.Equal(t, profile.want, re.Reason, re.Error())
			}
		})
	}
}

func TestRefusalMessages(t *testing.T) {
	t.Parallel()
	p := egress.New(nil, networks(t, "203.0.113.0/24"))
	msg := func(pol *egress.Policy, addr string) string {
		err := pol.Check(netip.MustParseAddr(addr))
		require.Error(t, err)
		return err.Error()
	}
	require.Equal(t, "The address 169.254.169.254 is not allowed (built-in refusal of link-local, cloud metadata and "+
		"unspecified addresses; FLOWMILL_EGRESS_ALLOW can open it).", msg(p, "::ffff:169.254.169.254"))
	require.Equal(t, "The address 203.0.113.9 is not allowed (FLOWMILL_EGRESS_DENY).", msg(p, "203.0.113.9"))
	require.Equal(t, "The address ::1 is not allowed (built-in refusal of loopback and private addresses for "+
		"fetches any member can make; FLOWMILL_EGRESS_ALLOW can open it).", msg(p.Strict(), "::1"))
}

func TestParseNetworks(t *testing.T) {
	t.Parallel()
	got, err := egress.ParseNetworks(" 10.0.0.0/8, 192.168.1.5 ,fd00::/8,, ::ffff:1.2.3.4, 10.1.2.3/16, 2001:db8::1")
	require.NoError(t, err)
	want := []string{"10.0.0.0/8", "192.168.1.5/32", "fd00::/8", "1.2.3.4/32", "10.1.0.0/16", "2001:db8::1/128"}
	require.Len(t, got, len(want))
	for i := range want {
		require.Equal(t, want[i], got[i].String())
	}

	for _, in := range []string{"  ", ""} {
		got, err := egress.ParseNetworks(in)
		require.NoError(t, err)
		require.Nil(t, got)
	}

	for _, bad := range []string{"10.0.0.300", "10.0.0.0/33", "example.com", "fe80::1%eth0", "::ffff:0:0/90", "10.0.0.0/8/8", "fd00::/129"} {
		_, err := egress.ParseNetworks("10.0.0.0/8, " + bad)
		require.EqualError(t, err, `"`+bad+`" is not an IP address or CIDR network (such as 10.0.0.0/8, 192.168.1.5 or fd00::/8)`, bad)
	}
}
