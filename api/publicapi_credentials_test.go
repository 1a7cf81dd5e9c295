package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
)

func TestPublicAPICredentials(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "mia@example.com", "Mia")
	ownerAPI := apiClient{e: e, key: createKey(t, owner)}
	memberAPI := apiClient{e: e, key: createKey(t, member)}

	apiClient{e: e}.fails(t, "POST", "credentials", `{"name":"x","type":"httpBasicAuth","data":{"user":"a","password":"b"}}`, 401, "'X-FLOWMILL-API-KEY' or 'X-N8N-API-KEY' header required")
	apiClient{e: e, key: "flowmill_api_nope"}.fails(t, "DELETE", "credentials/abc", "", 401, "Unauthorized")
	apiClient{e: e, key: "flowmill_api_nope"}.fails(t, "GET", "credentials/schema/httpBasicAuth", "", 401, "Unauthorized")

	// Schema by type.
	var schema map[string]any
	memberAPI.ok(t, "GET", "credentials/schema/httpBasicAuth", "", &schema)
	b, _ := json.Marshal(schema)
	require.JSONEq(t, `{"type":"object","additionalProperties":false,
		"properties":{"user":{"type":"string"},"password":{"type":"string"}},"required":["user","password"]}`, string(b))
	ownerAPI.ok(t, "GET", "credentials/schema/oAuth2Api", "", &schema)
	require.Contains(t, schema, "allOf")
	ownerAPI.fails(t, "GET", "credentials/schema/githubApi", "", 404, `"githubApi" could not be found`)

	// Create: the document's rules, the type, then the data against the type's schema.
	for _, tc := range []struct{ body, msg string }{
		{`{"type":"httpBasicAuth","data":{}}`, `"name"`},
		{`{"name":"","type":"httpBasicAuth","data":{}}`, "request/body/name"},
		{`{"name":"` + strings.Repeat("n", 129) + `","type":"httpBasicAuth","data":{}}`, "request/body/name"},
		{`{"name":"x","type":"httpBasicAuth","data":"user:pw"}`, "request/body/data"},
		{`{"name":"x","type":"httpBasicAuth"`, "request/body"},
		{`{"name":"x","type":"githubApi","data":{}}`, `request/body/type "githubApi" is not a known credential type`},
		{`{"name":"x","type":"httpBasicAuth","data":{"user":"ada"}}`, `request/body/data property "password" is missing`},
		{`{"name":"x","type":"httpBasicAuth","data":{"user":"ada","password":1}}`, `request/body/data/password value must be a string`},
		{`{"name":"x","type":"httpBasicAuth","data":{"user":"ada","password":"pw","token":"t"}}`, `request/body/data property "token" is unsupported`},
		{`{"name":"x","type":"oAuth2Api","data":{"grantType":"clientCredentials","authUrl":"https://a","accessTokenUrl":"https://t",` +
			`"clientId":"i","clientSecret":"s","scope":"","authentication":"header"}}`, `request/body/data/authUrl is not allowed when grantType is "clientCredentials"`},
	} {
		ownerAPI.fails(t, "POST", "credentials", tc.body, 400, tc.msg)
	}

	before := time.Now().Add(-time.Second)
	var created credentialResponse
	ownerAPI.ok(t, "POST", "credentials", `{"name":"Orders API","type":"httpBasicAuth","data":{"user":"ada.lovelace","password":"s3cret-pw"}}`, &created)
	require.Len(t, created.ID, 16)
	require.Equal(t, "Orders API", created.Name)
	require.Equal(t, "httpBasicAuth", created.Type)
	require.True(t, created.CreatedAt.After(before))
	require.True(t, created.UpdatedAt.Equal(created.CreatedAt))
	var mine credentialResponse
	memberAPI.ok(t, "POST", "credentials", `{"name":"Mia's header","type":"httpHeaderAuth","data":{"name":"X-Key","value":"k"}}`, &mine)
	memberAPI.ok(t, "POST", "credentials", `{"name":"Token","type":"oAuth2Api","data":{"grantType":"clientCredentials","accessTokenUrl":"https://t",`+
		`"clientId":"i","clientSecret":"s","scope":"","authentication":"body"}}`, nil)

	// At rest the data is encrypted with the instance's key, and decrypts back.
	row, err := e.in.Store.GetCredential(context.Background(), created.ID)
	require.NoError(t, err)
	require.NotContains(t, row.Data, "s3cret-pw")
	require.NotContains(t, row.Data, "ada.lovelace")
	require.True(t, strings.HasPrefix(row.Data, "v1:"))
	cipher, err := credential.NewCipher(e.cfg.EncryptionKey)
	require.NoError(t, err)
	data, err := cipher.Decrypt(row.Data)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"user": "ada.lovelace", "password": "s3cret-pw"}, data)
	require.JSONEq(t, `"n8n-nodes-base.httpbasicauth"`, mustJSON(t, row.NodesAccess, 0, "nodeType"))

	// Delete: members only their own; the owner any; the answer never holds data.
	memberAPI.fails(t, "DELETE", "credentials/"+created.ID, "", 404, "could not be found")
	ownerAPI.fails(t, "DELETE", "credentials/no-such-id", "", 404, `Credential with ID "no-such-id" could not be found`)
	var deleted map[string]any
	memberAPI.ok(t, "DELETE", "credentials/"+mine.ID, "", &deleted)
	require.Equal(t, mine.ID, deleted["id"])
	require.NotContains(t, deleted, "data")
	ownerAPI.ok(t, "DELETE", "credentials/"+created.ID, "", &deleted)
	require.Equal(t, "Orders API", deleted["name"])
	ownerAPI.fails(t, "DELETE", "credentials/"+created.ID, "", 404, "could not be found")
}

// mustJSON returns the JSON text of doc[index][key].
func mustJSON(t *testing.T, doc []byte, index int, key string) string {
	t.Helper()
	var list []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(doc, &list))
	require.Greater(t, len(list), index)
	return string(list[index][key])
}
