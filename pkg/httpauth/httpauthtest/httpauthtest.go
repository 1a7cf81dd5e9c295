// Package httpauthtest checks, on the server side of tests, the authentication pkg/httpauth
// adds, computed independently of it.
package httpauthtest

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// ValidOAuth1 reports whether r carries an RFC 5849 HMAC-SHA1 signature made with the consumer
// key and secret and the token secret, recomputed from the request's method, URL (plain http)
// and query.
func ValidOAuth1(r *http.Request, consumerKey, consumerSecret, tokenSecret string) bool {
	h := r.Header.Get("Authorization")
	if !strings.HasPrefix(h, "OAuth ") {
		return false
	}
	enc := func(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "+", "%20") }
	oauth := map[string]string{}
	for _, part := range strings.Split(strings.TrimPrefix(h, "OAuth "), ", ") {
		k, v, _ := strings.Cut(part, "=")
		oauth[k], _ = url.PathUnescape(strings.Trim(v, `"`))
	}
	var params []string
	for k, v := range oauth {
		if k != "oauth_signature" {
			params = append(params, enc(k)+"="+enc(v))
		}
	}
	for k, vs := range r.URL.Query() {
		for _, v := range vs {
			params = append(params, enc(k)+"="+enc(v))
		}
	}
	sort.Strings(params)
	base := strings.Join([]string{r.Method, enc("http://" + r.Host + r.URL.Path), enc(strings.Join(params, "&"))}, "&")
	mac := hmac.New(sha1.New, []byte(enc(consumerSecret)+"&"+enc(tokenSecret)))
	mac.Write([]byte(base))
	return oauth["oauth_consumer_key"] == consumerKey &&
		hmac.Equal([]byte(base64.StdEncoding.EncodeToString(mac.Sum(nil))), []byte(oauth["oauth_signature"]))
}
