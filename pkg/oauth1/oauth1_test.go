package oauth1_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/oauth1"
)

// The example of RFC 5849 section 1.2 (its parameters carry no oauth_version).
func TestRFC5849Example(t *testing.T) {
	u, err := url.Parse("http://photos.example.net/photos?file=vacation.jpg&size=original")
	require.NoError(t, err)
	params := map[string]string{"oauth_consumer_key": "dpf43f3p2l4k3l03", "oauth_token": "nnch734d00sl2jdk",
		"oauth_signature_method": "HMAC-SHA1", "oauth_timestamp": "137131202", "oauth_nonce": "chapoH"}
	base := oauth1.BaseString("GET", u, nil, params)
	require.Equal(t, "GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26"+
		"oauth_nonce%3DchapoH%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131202%26oauth_token%3Dnnch734d00sl2jdk%26size%3Doriginal", base)
	require.Equal(t, "MdpQcU8iPSUjWoN/UDMsK2sui9I=", oauth1.Signature("HMAC-SHA1", base, "kd94hf93k423kf44", "pfkkdhi9sl3r4s00"))
}

func TestSignAndVerifyEachMethod(t *testing.T) {
	u, err := url.Parse("https://API.example.com/v1/items?q=a%2Fb+c&q=2")
	require.NoError(t, err)
	form := url.Values{"note": {"x&y=z"}}
	for _, method := range []string{"", oauth1.HMACSHA1, oauth1.HMACSHA256, oauth1.HMACSHA512} {
		h := oauth1.Header(oauth1.Request{Method: "POST", URL: u, Form: form, ConsumerKey: "ck", ConsumerSecret: "c&s",
			Token: "tok", TokenSecret: "t s", SignatureMethod: method, Now: time.Unix(1700000000, 0)})
		params := oauth1.ParseHeader(h)
		want := method
		if want == "" {
			want = oauth1.HMACSHA1
		}
		require.Equal(t, want, params["oauth_signature_method"])
		require.Equal(t, "tok", params["oauth_token"])
		require.Equal(t, "1700000000", params["oauth_timestamp"])
		require.True(t, oauth1.Verify(h, "POST", u, form, "c&s", "t s"), method)
		require.False(t, oauth1.Verify(h, "POST", u, form, "c&s", "other"), "%s: the token secret is part of the key", method)
		require.False(t, oauth1.Verify(h, "POST", u, url.Values{"note": {"changed"}}, "c&s", "t s"), "%s: the body is signed", method)
		require.False(t, oauth1.Verify(h, "GET", u, form, "c&s", "t s"), "%s: the method is signed", method)
	}
	sha256 := oauth1.Signature(oauth1.HMACSHA256, "base", "a", "b")
	sha512 := oauth1.Signature(oauth1.HMACSHA512, "base", "a", "b")
	require.Len(t, sha256, 44)
	require.Len(t, sha512, 88)
}
