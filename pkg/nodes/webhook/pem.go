package webhook

import "strings"

// PEMKey puts a PEM key pasted on one line (its line breaks lost, or written as "\n") back on
// its lines, as n8n's formatPrivateKey does for the keys of JWT credentials.
func PEMKey(k string) string {
	k = strings.TrimSpace(strings.ReplaceAll(k, `\n`, "\n"))
	if strings.Contains(k, "\n") || !strings.HasPrefix(k, "-----BEGIN") {
		return k
	}
	begin := strings.Index(k[5:], "-----") + 10
	end := strings.LastIndex(k, "-----END")
	if begin < 10 || end < begin {
		return k
	}
	body := strings.Join(strings.Fields(k[begin:end]), "")
	var b strings.Builder
	b.WriteString(k[:begin] + "\n")
	for len(body) > 64 {
		b.WriteString(body[:64] + "\n")
		body = body[64:]
	}
	b.WriteString(body + "\n" + k[end:])
	return b.String()
}
