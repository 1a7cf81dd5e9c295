// Package egress decides which network addresses the server may connect to when it fetches
// something on a user's behalf (the HTTP Request node, Execute Workflow's URL source, importing
// a workflow from a URL, OAuth token calls), and builds the HTTP clients that enforce that
// decision on the address actually dialed: after DNS resolution, on every redirect hop and on
// every reconnect, so DNS rebinding cannot get round it.
//
// A process builds the policy once from its settings (config.Config.Egress) and asks it for
// clients: policy.Client(egress.Options{}) for fetches that workflows make (nodes, OAuth token
// calls), policy.Strict().Client(egress.Options{}) for fetches any member can make and read the
// answer of directly.
package egress

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

// Policy decides whether a connection to an address is allowed. The order is: an address in
// the deny list is refused; else one in the allow list is allowed; else the built-in refusals
// apply (link-local, cloud metadata, unspecified and broadcast addresses everywhere; loopback,
// private and shared ranges too in the strict profile); else it is allowed.
// A Policy is immutable and safe for concurrent use.
type Policy struct {
	allow, deny []netip.Prefix
	strict      bool
}

// New returns the policy of the given allow and deny networks (FLOWMILL_EGRESS_ALLOW and
// FLOWMILL_EGRESS_DENY); nil lists leave only the built-in refusals. Its profile is the one for
// fetches that workflows make; Strict gives the one for fetches any member can make directly.
func New(allow, deny []netip.Prefix) *Policy {
	return &Policy{allow: allow, deny: deny}
}

// Strict returns the same policy in the profile for fetches made on behalf of any member whose
// answer the member reads directly (importing a workflow from a URL): besides the built-in
// refusals it refuses loopback (127.0.0.0/8, ::1), private (10.0.0.0/8, 172.16.0.0/12,
// 192.168.0.0/16, fc00::/7) and shared (100.64.0.0/10) addresses unless the allow list names them.
func (p *Policy) Strict() *Policy {
	return &Policy{allow: p.allow, deny: p.deny, strict: true}
}

// Reason says which rule refused an address.
type Reason int

const (
	// Denied: the address is in FLOWMILL_EGRESS_DENY.
	Denied Reason = iota + 1
	// BuiltIn: the address is link-local, a cloud metadata service, unspecified or broadcast.
	BuiltIn
	// Internal: the strict profile refuses loopback, private and shared addresses.
	Internal
	// Unparsable: the dialed address is not an IP address and port (a Unix socket, say).
	Unparsable
)

// RefusedError is a connection the policy refused; no packet was sent to Addr.
type RefusedError struct {
	// Addr is the refused address as dialed (IPv4-mapped IPv6 addresses in their IPv4 form).
	Addr   string
	Reason Reason
}

func (e *RefusedError) Error() string {
	switch e.Reason {
	case Denied:
		return fmt.Sprintf("The address %s is not allowed (FLOWMILL_EGRESS_DENY).", e.Addr)
	case BuiltIn:
		return fmt.Sprintf("The address %s is not allowed (built-in refusal of link-local, "+
			"cloud metadata and unspecified addresses; FLOWMILL_EGRESS_ALLOW can open it).", e.Addr)
	case Internal:
		return fmt.Sprintf("The address %s is not allowed (built-in refusal of loopback and "+
			"private addresses for fetches any member can make; FLOWMILL_EGRESS_ALLOW can open it).", e.Addr)
	}
	return fmt.Sprintf("The address %s is not allowed: only IP addresses can be connected to.", e.Addr)
}

// Refusal returns the policy refusal err is or wraps, if any.
func Refusal(err error) (*RefusedError, bool) {
	var re *RefusedError
	ok := errors.As(err, &re)
	return re, ok
}

// builtIn are refused in every profile: nothing a workflow needs lives there, and the metadata
// services hand out the cloud credentials of the machine.
var builtIn = prefixes(
	"169.254.0.0/16", "fe80::/10", // link-local, which holds most metadata services (169.254.169.254)
	"fd00:ec2::254/128",   // AWS metadata over IPv6
	"fd20:ce::254/128",    // Google Cloud metadata over IPv6
	"100.100.100.200/32",  // Alibaba Cloud metadata
	"168.63.129.16/32",    // Azure host agent (WireServer)
	"0.0.0.0/8", "::/128", // unspecified: connecting to it reaches the machine itself
	"255.255.255.255/32", // broadcast
)

// internal are refused in the strict profile: this machine and the networks behind it.
var internal = prefixes(
	"127.0.0.0/8", "::1/128", // loopback
	"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", // private
	"100.64.0.0/10", // shared (carrier-grade NAT)
)

// nat64 is the well-known NAT64 prefix: its addresses reach the IPv4 address in their last 32
// bits, so that address is checked as well.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

func prefixes(list ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(list))
	for i, s := range list {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// Check reports whether a connection to addr is allowed: nil, or a *RefusedError.
func (p *Policy) Check(addr netip.Addr) error {
	addr = addr.WithZone("").Unmap()
	forms := []netip.Addr{addr}
	if nat64.Contains(addr) {
		b := addr.As16()
		forms = append(forms, netip.AddrFrom4([4]byte(b[12:])))
	}
	for _, a := range forms {
		if r := p.refuses(a); r != 0 {
			return &RefusedError{Addr: addr.String(), Reason: r}
		}
	}
	return nil
}

// refuses applies the decision order to one address; 0 means allowed.
func (p *Policy) refuses(a netip.Addr) Reason {
	switch {
	case contains(p.deny, a):
		return Denied
	case contains(p.allow, a):
		return 0
	case contains(builtIn, a):
		return BuiltIn
	case p.strict && contains(internal, a):
		return Internal
	}
	return 0
}

func contains(list []netip.Prefix, a netip.Addr) bool {
	for _, p := range list {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ParseNetworks reads a comma-separated list of IP addresses and CIDR networks, IPv4 or IPv6
// (such as "10.0.0.0/8, 192.168.1.5, fd00::/8"); an empty list is nil. IPv4-mapped IPv6 entries
// are taken in their IPv4 form, as the addresses they are compared with.
func ParseNetworks(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, entry := range strings.Split(list, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		p, err := parseNetwork(entry)
		if err != nil {
			return nil, fmt.Errorf("%q is not an IP address or CIDR network (such as 10.0.0.0/8, 192.168.1.5 or fd00::/8)", entry)
		}
		out = append(out, p)
	}
	return out, nil
}

func parseNetwork(s string) (netip.Prefix, error) {
	var p netip.Prefix
	if strings.Contains(s, "/") {
		var err error
		if p, err = netip.ParsePrefix(s); err != nil {
			return p, err
		}
	} else {
		a, err := netip.ParseAddr(s)
		if err != nil {
			return p, err
		}
		if a.Zone() != "" {
			return p, errors.New("zoned address")
		}
		p = netip.PrefixFrom(a, a.BitLen())
	}
	if a := p.Addr(); a.Is4In6() {
		bits := p.Bits() - 96
		if bits < 0 {
			return p, errors.New("an IPv4-mapped network shorter than /96")
		}
		p = netip.PrefixFrom(a.Unmap(), bits)
	}
	return p.Masked(), nil
}
