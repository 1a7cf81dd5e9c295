package debughelper

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// generator makes the random values of the "Generate Random Data" category.
type generator struct{ r *rand.Rand }

var (
	firstNames = []string{"Ada", "Alan", "Grace", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "Edsger", "Radia", "Tim", "Hedy", "John", "Katherine", "Donald"}
	lastNames  = []string{"Lovelace", "Turing", "Hopper", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Allen", "Dijkstra", "Perlman", "Berners-Lee", "Lamarr", "McCarthy", "Johnson", "Knuth"}
	streets    = []string{"Main Street", "Oak Avenue", "Maple Road", "Cedar Lane", "Pine Street", "Elm Drive", "Lake View", "Hill Road", "Park Avenue", "River Street"}
	cities     = []string{"Springfield", "Riverton", "Fairview", "Greenville", "Madison", "Georgetown", "Clinton", "Franklin", "Salem", "Bristol"}
	states     = []string{"California", "Texas", "New York", "Florida", "Illinois", "Ohio", "Georgia", "Oregon", "Nevada", "Colorado"}
	countries  = []string{"United States", "Canada", "Germany", "France", "Japan", "Brazil", "India", "Australia", "Kenya", "Spain"}
	domains    = []string{"example.com", "example.org", "example.net", "test.io", "sample.dev"}
	tlds       = []string{"com", "org", "net", "io", "dev"}
	words      = []string{"alpha", "bravo", "delta", "echo", "nova", "pixel", "quantum", "river", "solar", "tango"}
)

func (g *generator) pick(list []string) string { return list[g.r.IntN(len(list))] }

// byType returns the generator of a data type; nanoid is handled by the caller.
func (g *generator) byType(t string) (func() any, bool) {
	fns := map[string]func() any{
		"user":       func() any { return g.user() },
		"email":      func() any { return map[string]any{"email": g.email(), "confirmed": g.r.IntN(2) == 1} },
		"address":    func() any { return g.address() },
		"creditCard": func() any { return g.creditCard() },
		"uuid":       func() any { return g.uuid() },
		"macAddress": func() any { return g.mac() },
		"ipv4": func() any {
			return fmt.Sprintf("%d.%d.%d.%d", g.r.IntN(256), g.r.IntN(256), g.r.IntN(256), g.r.IntN(256))
		},
		"ipv6":    func() any { return g.ipv6() },
		"latLong": func() any { return fmt.Sprintf("%.4f, %.4f", g.r.Float64()*180-90, g.r.Float64()*360-180) },
		"semver":  func() any { return fmt.Sprintf("%d.%d.%d", g.r.IntN(10), g.r.IntN(20), g.r.IntN(50)) },
		"url":     func() any { return "https://" + g.pick(words) + "." + g.pick(tlds) },
	}
	fn, ok := fns[t]
	return fn, ok
}

func (g *generator) email() string {
	return strings.ToLower(g.pick(firstNames)+"."+g.pick(lastNames)) + fmt.Sprint(g.r.IntN(100)) + "@" + g.pick(domains)
}

func (g *generator) user() map[string]any {
	return map[string]any{
		"uid": g.uuid(), "email": g.email(), "firstname": g.pick(firstNames), "lastname": g.pick(lastNames),
		"password": g.nanoid("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&*", 12),
	}
}

func (g *generator) address() map[string]any {
	return map[string]any{
		"firstname": g.pick(firstNames), "lastname": g.pick(lastNames),
		"street": fmt.Sprintf("%d %s", 1+g.r.IntN(9999), g.pick(streets)), "city": g.pick(cities),
		"zip": fmt.Sprintf("%05d", g.r.IntN(100000)), "state": g.pick(states), "country": g.pick(countries),
	}
}

func (g *generator) creditCard() map[string]any {
	typ, prefix := "Visa", "4"
	if g.r.IntN(2) == 1 {
		typ, prefix = "MasterCard", fmt.Sprint(51+g.r.IntN(5))
	}
	return map[string]any{
		"type": typ, "number": luhn(g, prefix, 16), "ccv": fmt.Sprintf("%03d", g.r.IntN(1000)),
		"exp":         fmt.Sprintf("%02d/%02d", 1+g.r.IntN(12), 1+g.r.IntN(40)),
		"holder_name": g.pick(firstNames) + " " + g.pick(lastNames),
	}
}

// luhn returns a card number of n digits starting with prefix whose check digit is valid.
func luhn(g *generator, prefix string, n int) string {
	digits := []byte(prefix)
	for len(digits) < n-1 {
		digits = append(digits, byte('0'+g.r.IntN(10)))
	}
	sum := 0
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if (len(digits)-1-i)%2 == 0 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return string(append(digits, byte('0'+(10-sum%10)%10)))
}

func (g *generator) uuid() string {
	var b [16]byte
	for i := range b {
		b[i] = byte(g.r.IntN(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func (g *generator) mac() string {
	parts := make([]string, 6)
	for i := range parts {
		parts[i] = fmt.Sprintf("%02x", g.r.IntN(256))
	}
	return strings.Join(parts, ":")
}

func (g *generator) ipv6() string {
	parts := make([]string, 8)
	for i := range parts {
		parts[i] = fmt.Sprintf("%x", g.r.IntN(65536))
	}
	return strings.Join(parts, ":")
}

func (g *generator) nanoid(alphabet string, n int) string {
	runes := []rune(alphabet)
	out := make([]rune, n)
	for i := range out {
		out[i] = runes[g.r.IntN(len(runes))]
	}
	return string(out)
}
