// Package oauth1 signs requests as RFC 5849 (OAuth 1.0a) describes, with HMAC-SHA1,
// HMAC-SHA256 or HMAC-SHA512. It depends on nothing but the standard library, so the HTTP
// Request node and the credential connect flow share it.
package oauth1

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Signature methods.
const (
	HMACSHA1   = "HMAC-SHA1"
	HMACSHA256 = "HMAC-SHA256"
	HMACSHA512 = "HMAC-SHA512"
)

// Request is what a signature covers and is made with.
type Request struct {
	// Method is the HTTP method, URL the full request URL (its query is signed too).
	Method string
	URL    *url.URL
	// Form holds url-encoded body parameters, which are signed too; may be nil.
	Form url.Values
	// ConsumerKey and ConsumerSecret identify the client.
	ConsumerKey, ConsumerSecret string
	// Token and TokenSecret are the request or access token; empty before one is obtained.
	Token, TokenSecret string
	// SignatureMethod is one of the HMAC methods; "" means HMAC-SHA1.
	SignatureMethod string
	// Extra holds further oauth_ protocol parameters, such as oauth_callback or oauth_verifier.
	Extra map[string]string
	// Nonce and Now default to 16 random bytes in hex and the current time.
	Nonce string
	Now   time.Time
}

// Header returns the Authorization header value ("OAuth …") of r.
func Header(r Request) string {
	method := r.SignatureMethod
	if method == "" {
		method = HMACSHA1
	}
	if r.Nonce == "" {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		r.Nonce = hex.EncodeToString(b)
	}
	if r.Now.IsZero() {
		r.Now = time.Now()
	}
	oauth := map[string]string{
		"oauth_consumer_key":     r.ConsumerKey,
		"oauth_nonce":            r.Nonce,
		"oauth_signature_method": method,
		"oauth_timestamp":        strconv.FormatInt(r.Now.Unix(), 10),
		"oauth_version":          "1.0",
	}
	if r.Token != "" {
		oauth["oauth_token"] = r.Token
	}
	for k, v := range r.Extra {
		oauth[k] = v
	}
	oauth["oauth_signature"] = Signature(method, BaseString(r.Method, r.URL, r.Form, oauth), r.ConsumerSecret, r.TokenSecret)
	keys := make([]string, 0, len(oauth))
	for k := range oauth {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = Encode(k) + `="` + Encode(oauth[k]) + `"`
	}
	return "OAuth " + strings.Join(parts, ", ")
}

// BaseString is the signature base string of a request with protocol parameters oauth (without
// oauth_signature): method, base URL and the sorted, encoded parameters.
func BaseString(method string, u *url.URL, form url.Values, oauth map[string]string) string {
	var params []string
	add := func(k, v string) { params = append(params, Encode(k)+"="+Encode(v)) }
	for k, v := range oauth {
		add(k, v)
	}
	for k, vs := range u.Query() {
		for _, v := range vs {
			add(k, v)
		}
	}
	for k, vs := range form {
		for _, v := range vs {
			add(k, v)
		}
	}
	slices.Sort(params)
	base := *u
	base.RawQuery, base.Fragment = "", ""
	base.Scheme, base.Host = strings.ToLower(base.Scheme), strings.ToLower(base.Host)
	return strings.ToUpper(method) + "&" + Encode(base.String()) + "&" + Encode(strings.Join(params, "&"))
}

// Signature is the base64 HMAC of baseString keyed with the encoded secrets.
func Signature(method, baseString, consumerSecret, tokenSecret string) string {
	var h func() hash.Hash
	switch method {
	case HMACSHA256:
		h = sha256.New
	case HMACSHA512:
		h = sha512.New
	default:
		h = sha1.New
	}
	mac := hmac.New(h, []byte(Encode(consumerSecret)+"&"+Encode(tokenSecret)))
	mac.Write([]byte(baseString))
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// Encode percent-encodes all but RFC 3986 unreserved characters.
func Encode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + strings.ToUpper(hex.EncodeToString([]byte{c})))
	}
	return b.String()
}

// ParseHeader reads the parameters of an "OAuth …" Authorization header; nil when it is not one.
func ParseHeader(h string) map[string]string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(h), "OAuth ")
	if !ok {
		return nil
	}
	out := map[string]string{}
	for _, part := range strings.Split(rest, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		key, err1 := url.PathUnescape(k)
		val, err2 := url.PathUnescape(strings.Trim(v, `"`))
		if err1 != nil || err2 != nil {
			continue
		}
		out[key] = val
	}
	return out
}

// Verify reports whether the Authorization header h signs a request of method to u with form
// body parameters, made with the given secrets: what a provider checks.
func Verify(h, method string, u *url.URL, form url.Values, consumerSecret, tokenSecret string) bool {
	params := ParseHeader(h)
	sig, ok := params["oauth_signature"]
	if !ok {
		return false
	}
	delete(params, "oauth_signature")
	want := Signature(params["oauth_signature_method"], BaseString(method, u, form, params), consumerSecret, tokenSecret)
	return hmac.Equal([]byte(sig), []byte(want))
}
