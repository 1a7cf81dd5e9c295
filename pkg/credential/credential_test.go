package credential_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
)

func TestCipherRoundTrip(t *testing.T) {
	c, err := credential.NewCipher("a-key-of-enough-length")
	require.NoError(t, err)
	data := map[string]any{"user": "ada", "password": "s3cret", "n": 1.5}
	sealed, err := c.Encrypt(data)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(sealed, "v1:"))
	require.NotContains(t, sealed, "s3cret")
	again, err := c.Encrypt(data)
	require.NoError(t, err)
	require.NotEqual(t, sealed, again, "every encryption has its own nonce")
	got, err := c.Decrypt(sealed)
	require.NoError(t, err)
	require.Equal(t, data, got)

	other, err := credential.NewCipher("another-key-of-enough-length")
	require.NoError(t, err)
	_, err = other.Decrypt(sealed)
	require.ErrorIs(t, err, credential.ErrDecrypt, "another key cannot read it")
	tampered := sealed[:len(sealed)-2] + "AA"
	if tampered == sealed {
		tampered = sealed[:len(sealed)-2] + "BB"
	}
	for _, bad := range []string{tampered, "", "v1:", "v1:!!", `{"user":"ada"}`} {
		_, err = c.Decrypt(bad)
		require.ErrorIs(t, err, credential.ErrDecrypt, "%q", bad)
		require.NotContains(t, err.Error(), "ada")
	}
	_, err = credential.NewCipher("")
	require.Error(t, err)
}

func TestTypes(t *testing.T) {
	names := []string{}
	for _, typ := range credential.Types() {
		names = append(names, typ.Name)
		require.NotEmpty(t, typ.DisplayName)
		require.NotEmpty(t, typ.DocumentationURL)
	}
	// The generic types come first; each node family's follow.
	require.Equal(t, []string{"httpBasicAuth", "httpDigestAuth", "httpHeaderAuth", "httpQueryAuth", "httpCustomAuth", "oAuth1Api", "oAuth2Api",
		"totpApi"}, names[:8])
	require.Len(t, slices.Compact(slices.Sorted(slices.Values(names))), len(names), "type names are unique")
	require.Subset(t, names, []string{"smtp", "imap", "ftp", "sshPrivateKey", "jwtAuth"})
	_, ok := credential.Lookup("githubApi")
	require.False(t, ok)
	basic, ok := credential.Lookup("httpBasicAuth")
	require.True(t, ok)
	b, err := json.Marshal(basic)
	require.NoError(t, err)
	require.JSONEq(t, `{"name":"httpBasicAuth","displayName":"Basic Auth","documentationUrl":"httpRequest","genericAuth":true,
		"icon":"node:n8n-nodes-base.httpRequest","testedBy":["n8n-nodes-base.httpRequest"],"properties":[
		{"displayName":"User","name":"user","type":"string","default":""},
		{"displayName":"Password","name":"password","type":"string","typeOptions":{"password":true},"default":""}]}`, string(b))
}

func TestJSONSchema(t *testing.T) {
	basic, _ := credential.Lookup("httpBasicAuth")
	b, err := json.Marshal(basic.JSONSchema())
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"object","additionalProperties":false,
		"properties":{"user":{"type":"string"},"password":{"type":"string"}},"required":["user","password"]}`, string(b))

	oauth2, _ := credential.Lookup("oAuth2Api")
	b, err = json.Marshal(oauth2.JSONSchema())
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"object","additionalProperties":false,
		"properties":{
			"grantType":{"type":"string","enum":["authorizationCode","clientCredentials","pkce"]},
			"authUrl":{"type":"string"},"accessTokenUrl":{"type":"string"},"clientId":{"type":"string"},
			"clientSecret":{"type":"string"},"scope":{"type":"string"},"authQueryParameters":{"type":"string"},
			"authentication":{"type":"string","enum":["body","header"]}},
		"required":["grantType","accessTokenUrl","clientId","clientSecret","scope","authentication"],
		"allOf":[{"if":{"properties":{"grantType":{"enum":["authorizationCode","pkce"]}}},
			"then":{"allOf":[{"required":["authUrl"]},{"required":["authQueryParameters"]}]},
			"else":{"allOf":[{"not":{"required":["authUrl"]}},{"not":{"required":["authQueryParameters"]}}]}}]}`, string(b))
}

func TestValidate(t *testing.T) {
	oauth2 := `"accessTokenUrl":"https://x/token","clientId":"id","clientSecret":"s","scope":"","authentication":"header"`
	for _, tc := range []struct {
		typ, data, err string
	}{
		{"httpBasicAuth", `{"user":"ada","password":"pw"}`, ""},
		{"httpBasicAuth", `{"user":"","password":""}`, ""},
		{"httpBasicAuth", `{"user":"ada"}`, `property "password" is missing`},
		{"httpBasicAuth", `{"user":"ada","password":"pw","token":"x"}`, `property "token" is unsupported`},
		{"httpBasicAuth", `{"user":1,"password":"pw"}`, `user value must be a string`},
		{"httpHeaderAuth", `{"name":"X-Key","value":"v"}`, ""},
		{"oAuth1Api", `{"authUrl":"a","accessTokenUrl":"b","consumerKey":"c","consumerSecret":"d","requestTokenUrl":"e","signatureMethod":"MD5"}`,
			`signatureMethod value must be one of "HMAC-SHA1", "HMAC-SHA256", "HMAC-SHA512"`},
		{"oAuth2Api", `{"grantType":"authorizationCode","authUrl":"https://x/auth","authQueryParameters":"",` + oauth2 + `}`, ""},
		{"oAuth2Api", `{"grantType":"authorizationCode","authQueryParameters":"",` + oauth2 + `}`, `property "authUrl" is missing`},
		{"oAuth2Api", `{"grantType":"clientCredentials",` + oauth2 + `}`, ""},
		{"oAuth2Api", `{"grantType":"clientCredentials","authUrl":"https://x/auth",` + oauth2 + `}`,
			`authUrl is not allowed when grantType is "clientCredentials"`},
	} {
		typ, ok := credential.Lookup(tc.typ)
		require.True(t, ok)
		var data map[string]any
		require.NoError(t, json.Unmarshal([]byte(tc.data), &data))
		err := typ.Validate(data)
		if tc.err == "" {
			require.NoError(t, err, tc.data)
			continue
		}
		var de *credential.DataError
		require.ErrorAs(t, err, &de, tc.data)
		require.Equal(t, tc.err, err.Error())
	}
}

func TestResolve(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		c, err := credential.NewCipher("a-key-of-enough-length")
		require.NoError(t, err)
		noAccess := store.JSON(`[]`)
		owner := &store.User{ID: store.NewUUID(), GlobalRole: store.RoleOwner}
		member := &store.User{ID: store.NewUUID(), GlobalRole: store.RoleMember}
		for _, u := range []*store.User{owner, member} {
			require.NoError(t, s.DB.Create(u).Error)
		}
		create := func(u *store.User, name, typ, user string) *store.Credential {
			sealed, err := c.Encrypt(map[string]any{"user": user, "password": "pw"})
			require.NoError(t, err)
			cred := &store.Credential{Name: name, Type: typ, Data: sealed, NodesAccess: noAccess}
			require.NoError(t, s.CreateCredential(ctx, cred, u.ID))
			return cred
		}
		ownerBasic := create(owner, "Basic", "httpBasicAuth", "owner")
		memberBasic := create(member, "Basic", "httpBasicAuth", "member")
		create(member, "Twice", "httpBasicAuth", "a")
		create(member, "Twice", "httpBasicAuth", "b")
		create(member, "Digest", "httpDigestAuth", "digest")
		w := &store.Workflow{Name: "Flow"}
		require.NoError(t, s.CreateWorkflow(ctx, w, member.ID))

		run := credential.ForWorkflow(s, c, w.ID)
		basic := func(id, name string) nodes.CredentialRef {
			return nodes.CredentialRef{Type: "httpBasicAuth", ID: id, Name: name, Node: "HTTP Request"}
		}
		data, err := run(ctx, basic(memberBasic.ID, "renamed since"))
		require.NoError(t, err)
		require.Equal(t, map[string]any{"user": "member", "password": "pw"}, data)
		data, err = run(ctx, basic("", "Basic"))
		require.NoError(t, err)
		require.Equal(t, "member", data["user"], "by name among the owner's credentials")
		data, err = run(ctx, basic("id-from-another-instance", "Basic"))
		require.NoError(t, err)
		require.Equal(t, "member", data["user"], "an unknown id falls back to the name")
		_, err = run(ctx, basic(ownerBasic.ID, ""))
		require.ErrorIs(t, err, credential.ErrNotFound, "a member's workflow cannot use others' credentials")
		require.EqualError(t, err, fmt.Sprintf(`Credential with ID %q does not exist for type "httpBasicAuth".`, ownerBasic.ID),
			"said as n8n says it, as for a deleted credential")
		_, err = run(ctx, basic(ownerBasic.ID, "Not a name of the member's"))
		require.EqualError(t, err, fmt.Sprintf(`Credential with ID %q does not exist for type "httpBasicAuth".`, ownerBasic.ID))
		gone := create(member, "Gone", "httpBasicAuth", "gone")
		_, err = s.DeleteCredential(ctx, member, gone.ID)
		require.NoError(t, err)
		_, err = run(ctx, basic(gone.ID, "Gone"))
		require.ErrorIs(t, err, credential.ErrNotFound)
		require.EqualError(t, err, fmt.Sprintf(`Credential with ID %q does not exist for type "httpBasicAuth".`, gone.ID), "a deleted credential")
		_, err = run(ctx, basic("", "Twice"))
		require.ErrorIs(t, err, credential.ErrAmbiguous)
		_, err = run(ctx, basic("", "Digest"))
		require.ErrorIs(t, err, credential.ErrNotFound, "the type must match")

		data, err = credential.ForUser(s, c, owner)(ctx, basic(memberBasic.ID, ""))
		require.NoError(t, err)
		require.Equal(t, "member", data["user"], "the instance owner may use every credential")
		_, err = credential.ForWorkflow(s, c, "")(ctx, basic(memberBasic.ID, ""))
		require.ErrorIs(t, err, credential.ErrUnsavedWorkflow)
	})
}
