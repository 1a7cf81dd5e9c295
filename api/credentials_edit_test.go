package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
)

// credentialJSON is a credential as the REST routes answer it.
type credentialJSON struct {
	ID          string           `json:"id"`
	Name        string           `json:"name"`
	Type        string           `json:"type"`
	NodesAccess []map[string]any `json:"nodesAccess"`
	Data        map[string]any   `json:"data"`
}

func createCredential(t *testing.T, p *person, name, typ, data string) credentialJSON {
	t.Helper()
	var c credentialJSON
	p.ok(t, "POST", "rest/credentials", fmt.Sprintf(`{"name":%q,"type":%q,"nodesAccess":[{"nodeType":"n8n-nodes-base.httpRequest"}],"data":%s}`,
		name, typ, data), &c)
	return c
}

func TestCredentialCreateReadUpdateDelete(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "mia@example.com", "Mia")
	ctx := context.Background()

	created := createCredential(t, member, "  Orders API  ", "httpBasicAuth", `{"user":"ada.lovelace","password":"s3cret-pw"}`)
	require.Equal(t, "Orders API", created.Name, "the name is trimmed")
	require.Equal(t, "httpBasicAuth", created.Type)
	require.Nil(t, created.Data, "create answers no data")
	require.Len(t, created.NodesAccess, 1)
	require.Equal(t, "n8n-nodes-base.httpRequest", created.NodesAccess[0]["nodeType"])
	require.NotEmpty(t, created.NodesAccess[0]["date"], "entries are dated")

	// Encrypted at rest: the stored row does not hold the plain text.
	row, err := e.in.Store.GetCredential(ctx, created.ID)
	require.NoError(t, err)
	require.NotContains(t, row.Data, "s3cret-pw")
	require.NotContains(t, row.Data, "ada.lovelace")
	plain, err := e.srv.credentials.Decrypt(row.Data)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"user": "ada.lovelace", "password": "s3cret-pw"}, plain)

	// Metadata, then data with the secret redacted, for the owner of the credential.
	var got map[string]any
	member.ok(t, "GET", "rest/credentials/"+created.ID, "", &got)
	require.ElementsMatch(t, []string{"id", "name", "type", "nodesAccess", "createdAt", "updatedAt"}, keys(got))
	var withData credentialJSON
	member.ok(t, "GET", "rest/credentials/"+created.ID+"?includeData=true", "", &withData)
	require.Equal(t, map[string]any{"user": "ada.lovelace", "password": credential.BlankValue}, withData.Data)

	// The instance owner sees it but not its data; the owner's own data it sees.
	owner.ok(t, "GET", "rest/credentials/"+created.ID, "", &got)
	status, b := owner.call(t, "GET", "rest/credentials/"+created.ID+"?includeData=true", "")
	requireError(t, status, b, 403, "Only the owner of the credential can see its data")

	// The redaction round trip: the sentinel sent back keeps the stored secret.
	var patched credentialJSON
	member.ok(t, "PATCH", "rest/credentials/"+created.ID,
		fmt.Sprintf(`{"name":"Orders","type":"httpBasicAuth","nodesAccess":[],"data":{"user":"grace","password":%q}}`, credential.BlankValue), &patched)
	require.Equal(t, "Orders", patched.Name)
	require.Empty(t, patched.NodesAccess)
	require.Nil(t, patched.Data)
	row, err = e.in.Store.GetCredential(ctx, created.ID)
	require.NoError(t, err)
	plain, err = e.srv.credentials.Decrypt(row.Data)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"user": "grace", "password": "s3cret-pw"}, plain)
	// A new value replaces it.
	member.ok(t, "PATCH", "rest/credentials/"+created.ID, `{"data":{"user":"grace","password":"new-pw"}}`, &patched)
	row, _ = e.in.Store.GetCredential(ctx, created.ID)
	plain, _ = e.srv.credentials.Decrypt(row.Data)
	require.Equal(t, "new-pw", plain["password"])
	require.Equal(t, "Orders", patched.Name, "fields left out are kept")

	// The instance owner may change and delete any credential.
	owner.ok(t, "PATCH", "rest/credentials/"+created.ID, `{"name":"Orders (checked)"}`, &patched)
	require.Equal(t, "Orders (checked)", patched.Name)

	var deleted bool
	member.ok(t, "DELETE", "rest/credentials/"+created.ID, "", &deleted)
	require.True(t, deleted)
	for _, call := range [][2]string{{"GET", ""}, {"GET", "?includeData=true"}, {"PATCH", ""}, {"DELETE", ""}} {
		status, b = member.call(t, call[0], "rest/credentials/"+created.ID+call[1], `{"name":"x"}`)
		requireError(t, status, b, 404, fmt.Sprintf("Credential with ID %q could not be found.", created.ID))
	}
}

func TestCredentialOAuthTokenDataIsKeptAndHidden(t *testing.T) {
	e, _ := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	ctx := context.Background()
	created := createCredential(t, owner, "Provider", "oAuth2Api",
		`{"grantType":"authorizationCode","authUrl":"https://id.example.com/auth","accessTokenUrl":"https://id.example.com/token",
		"clientId":"cid","clientSecret":"csecret"}`)
	storeTokenData(t, e, created.ID, map[string]any{"access_token": "tok-1", "refresh_token": "ref-1"})
	var withData credentialJSON
	owner.ok(t, "GET", "rest/credentials/"+created.ID+"?includeData=true", "", &withData)
	require.Equal(t, true, withData.Data["oauthTokenData"])
	require.Equal(t, credential.BlankValue, withData.Data["clientSecret"])
	require.Equal(t, "cid", withData.Data["clientId"])

	// The editor sends back what it got, without the token data, with a new scope.
	delete(withData.Data, "oauthTokenData")
	withData.Data["scope"] = "read"
	body, err := json.Marshal(map[string]any{"name": "Provider", "type": "oAuth2Api", "data": withData.Data})
	require.NoError(t, err)
	owner.ok(t, "PATCH", "rest/credentials/"+created.ID, string(body), nil)
	row, err := e.in.Store.GetCredential(ctx, created.ID)
	require.NoError(t, err)
	data, err := e.srv.credentials.Decrypt(row.Data)
	require.NoError(t, err)
	require.Equal(t, "read", data["scope"])
	require.Equal(t, "csecret", data["clientSecret"])
	require.Equal(t, map[string]any{"access_token": "tok-1", "refresh_token": "ref-1"}, data["oauthTokenData"])
}

// storeTokenData adds OAuth token data to a stored credential, as the connect flow stores it.
func storeTokenData(t *testing.T, e *testEnv, id string, token map[string]any) {
	t.Helper()
	row, err := e.in.Store.GetCredential(context.Background(), id)
	require.NoError(t, err)
	data, err := e.srv.credentials.Decrypt(row.Data)
	require.NoError(t, err)
	data["oauthTokenData"] = token
	sealed, err := e.srv.credentials.Encrypt(data)
	require.NoError(t, err)
	require.NoError(t, e.in.Store.DB.Model(row).Update("data", sealed).Error)
}

func TestCredentialValidation(t *testing.T) {
	e, _ := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	basic := createCredential(t, owner, "Basic", "httpBasicAuth", `{"user":"u","password":"p"}`)
	oauth1 := `"authUrl":"https://x/a","accessTokenUrl":"https://x/t","consumerKey":"k","consumerSecret":"s","requestTokenUrl":"https://x/r"`
	for _, tc := range []struct{ name, body, msg string }{
		{"not JSON", `{"name":`, "The body must be a JSON object"},
		{"no name", `{"type":"httpBasicAuth","data":{}}`, "name must have 1 to 64 characters"},
		{"blank name", `{"name":"   ","type":"httpBasicAuth","data":{}}`, "name must have 1 to 64 characters"},
		{"long name", `{"name":"` + strings.Repeat("é", 65) + `","type":"httpBasicAuth","data":{}}`, "name must have 1 to 64 characters"},
		{"no type", `{"name":"x","data":{}}`, "type is required"},
		{"unknown type", `{"name":"x","type":"githubApi","data":{}}`, `type "githubApi" is not a known credential type`},
		{"data not an object", `{"name":"x","type":"httpBasicAuth","data":[1]}`, "data must be an object"},
		{"unknown key", `{"name":"x","type":"httpBasicAuth","data":{"token":"t"}}`, `data.token is not a property of the credential type "httpBasicAuth"`},
		{"token data on a non-OAuth type", `{"name":"x","type":"httpBasicAuth","data":{"oauthTokenData":{}}}`, "data.oauthTokenData is not a property"},
		{"wrong value type", `{"name":"x","type":"httpBasicAuth","data":{"user":5}}`, "data.user value must be a string"},
		{"option not offered", `{"name":"x","type":"oAuth1Api","data":{` + oauth1 + `,"signatureMethod":"MD5"}}`, `data.signatureMethod value must be one of "HMAC-SHA1"`},
		{"required missing", `{"name":"x","type":"oAuth1Api","data":{` + oauth1 + `}}`, "data.signatureMethod is required"},
		{"required empty", `{"name":"x","type":"oAuth1Api","data":{` + strings.Replace(oauth1, `"consumerKey":"k"`, `"consumerKey":""`, 1) + `,"signatureMethod":"HMAC-SHA1"}}`, "data.consumerKey is required"},
		{"required and shown", `{"name":"x","type":"oAuth2Api","data":{"grantType":"pkce","accessTokenUrl":"https://x/t","clientId":"c","clientSecret":"s"}}`, "data.authUrl is required"},
		{"custom auth JSON", `{"name":"x","type":"httpCustomAuth","data":{"json":"{nope"}}`, "data.json value must be valid JSON"},
		{"nodesAccess not a list", `{"name":"x","type":"httpBasicAuth","nodesAccess":{},"data":{}}`, "nodesAccess must be a list"},
		{"nodesAccess without nodeType", `{"name":"x","type":"httpBasicAuth","nodesAccess":[{"nodeType":1}],"data":{}}`, "nodesAccess[0].nodeType must be a non-empty string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, b := owner.call(t, "POST", "rest/credentials", tc.body)
			requireError(t, status, b, 400, tc.msg)
		})
	}
	var list []credentialJSON
	owner.ok(t, "GET", "rest/credentials", "", &list)
	require.Len(t, list, 1, "nothing was stored by the refused requests")

	// Accepted: a required field that is not shown, an expression, json.
	createCredential(t, owner, "Client", "oAuth2Api", `{"grantType":"clientCredentials","accessTokenUrl":"https://x/t","clientId":"c","clientSecret":"s"}`)
	createCredential(t, owner, "Expr", "oAuth1Api", `{`+oauth1+`,"signatureMethod":"={{$json.method}}"}`)
	createCredential(t, owner, "Custom", "httpCustomAuth", `{"json":"{\"headers\":{\"X-Key\":\"v\"}}"}`)

	// PATCH: the same rules, and the type cannot change; nothing is half-written.
	for _, tc := range []struct{ body, msg string }{
		{`{"type":"httpDigestAuth"}`, `type cannot be changed: the credential is of type "httpBasicAuth"`},
		{`{"name":""}`, "name must have 1 to 64 characters"},
		{`{"name":"Renamed","data":{"user":true}}`, "data.user value must be a string"},
		{`{"name":"Renamed","nodesAccess":"all"}`, "nodesAccess must be a list"},
	} {
		status, b := owner.call(t, "PATCH", "rest/credentials/"+basic.ID, tc.body)
		requireError(t, status, b, 400, tc.msg)
	}
	var got credentialJSON
	owner.ok(t, "GET", "rest/credentials/"+basic.ID+"?includeData=true", "", &got)
	require.Equal(t, "Basic", got.Name)
	require.Equal(t, "u", got.Data["user"])
	status, b := owner.call(t, "PATCH", "rest/credentials/nope", `{"name":"x"}`)
	requireError(t, status, b, 404, `Credential with ID "nope" could not be found.`)
}

func TestCredentialOwnership(t *testing.T) {
	e, smtp := startAccounts(t, map[string]string{"FLOWMILL_EGRESS_ALLOW": "127.0.0.1/32"})
	owner := setUpOwner(t, e)
	mia, _ := signUpMember(t, owner, smtp, "mia@example.com", "Mia")
	bob, _ := signUpMember(t, owner, smtp, "bob@example.com", "Bob")
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ }))
	t.Cleanup(srv.Close)

	mine := createCredential(t, mia, "Mia's", "httpBasicAuth", `{"user":"mia","password":"pw"}`)
	ownerCred := createCredential(t, owner, "Owner's", "httpBasicAuth", `{"user":"o","password":"pw"}`)
	for _, id := range []string{mine.ID, ownerCred.ID} {
		for _, call := range []struct{ method, path, body string }{
			{"GET", "rest/credentials/" + id, ""},
			{"GET", "rest/credentials/" + id + "?includeData=true", ""},
			{"PATCH", "rest/credentials/" + id, `{"name":"taken"}`},
			{"DELETE", "rest/credentials/" + id, ""},
			{"POST", "rest/credentials/test", fmt.Sprintf(`{"credentials":{"id":%q,"name":"x","type":"httpBasicAuth","data":{"user":"x","password":%q}},"testRequest":{"url":%q}}`,
				id, credential.BlankValue, srv.URL)},
		} {
			status, b := bob.call(t, call.method, call.path, call.body)
			requireError(t, status, b, 404, "could not be found")
		}
	}
	require.Zero(t, hits, "no test request went out with another's credential")
	var list []credentialJSON
	bob.ok(t, "GET", "rest/credentials", "", &list)
	require.Empty(t, list)
	owner.ok(t, "GET", "rest/credentials", "", &list)
	require.Len(t, list, 2, "the instance owner sees every credential, none was changed or deleted")
	for _, c := range list {
		require.NotEqual(t, "taken", c.Name)
	}
}

func TestNewCredentialName(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	mia, _ := signUpMember(t, owner, smtp, "mia@example.com", "Mia")
	name := func(p *person, query string) string {
		t.Helper()
		var out struct{ Name string }
		p.ok(t, "GET", "rest/credentials/new"+query, "", &out)
		return out.Name
	}
	require.Equal(t, "My credentials", name(owner, ""))
	createCredential(t, owner, "My credentials", "httpBasicAuth", `{}`)
	require.Equal(t, "My credentials 2", name(owner, ""))
	createCredential(t, owner, "My credentials 3", "httpBasicAuth", `{}`)
	require.Equal(t, "My credentials 2", name(owner, ""), "the first number not used")
	createCredential(t, owner, "My credentials 2", "httpBasicAuth", `{}`)
	require.Equal(t, "My credentials 4", name(owner, ""))
	require.Equal(t, "My credentials", name(mia, ""), "only the caller's credentials count")
	require.Equal(t, "Basic Auth account", name(owner, "?name="+strings.ReplaceAll("Basic Auth account", " ", "%20")))
	createCredential(t, owner, "Basic Auth account", "httpBasicAuth", `{}`)
	require.Equal(t, "Basic Auth account 2", name(owner, "?name=Basic%20Auth%20account"))
	long := strings.Repeat("a", 64)
	createCredential(t, owner, long, "httpBasicAuth", `{}`)
	got := name(owner, "?name="+long)
	require.Equal(t, strings.Repeat("a", 62), got, "numbered names stay within 64 characters: the base is shortened, and that name is free")
}

func TestCredentialTypesForTheEditor(t *testing.T) {
	e, _ := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	var types []map[string]any
	owner.ok(t, "GET", "rest/credential-types", "", &types)
	byName := map[string]map[string]any{}
	for _, typ := range types {
		byName[typ["name"].(string)] = typ
	}
	require.Equal(t, []any{"n8n-nodes-base.httpRequest"}, byName["httpDigestAuth"]["testedBy"])
	require.Nil(t, byName["oAuth2Api"]["testedBy"], "OAuth2 is tested by connecting, or by its token fetch")
	grant := byName["oAuth2Api"]["properties"].([]any)[0].(map[string]any)
	require.Equal(t, "grantType", grant["name"])
	require.Len(t, grant["options"], 3)
	authURL := byName["oAuth2Api"]["properties"].([]any)[1].(map[string]any)
	require.Equal(t, map[string]any{"show": map[string]any{"grantType": []any{"authorizationCode", "pkce"}}}, authURL["displayOptions"])

	status, b := owner.call(t, "GET", "rest/credential-icon/httpBasicAuth", "")
	requireError(t, status, b, 404, `The credential type "httpBasicAuth" has no icon file`)
	status, b = owner.call(t, "GET", "rest/credential-icon/nope", "")
	requireError(t, status, b, 404, `The credential type "nope" does not exist`)

	status, b = owner.call(t, "GET", "rest/credential-translation?credentialType=httpBasicAuth", "")
	require.Equal(t, 200, status)
	require.JSONEq(t, `{"data":null}`, string(b))
	status, b = owner.call(t, "GET", "rest/credential-translation", "")
	requireError(t, status, b, 400, "credentialType is required")
	status, b = owner.call(t, "GET", "rest/credential-translation?credentialType=nope", "")
	requireError(t, status, b, 404, `The credential type "nope" does not exist`)
}
