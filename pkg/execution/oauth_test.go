package execution_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/oauthprovider"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// A worker's run of HTTP Request with an OAuth2 client credentials credential fetches the token,
// stores it, and a later run whose token expired gets a new one.
func TestHTTPRequestWithOAuth2ClientCredentials(t *testing.T) {
	e := setup(t)
	ctx := context.Background()
	provider, err := oauthprovider.New(oauthprovider.Config{ClientID: "flowmill", ClientSecret: "s3cret"})
	require.NoError(t, err)
	srv := httptest.NewServer(provider.Handler())
	t.Cleanup(srv.Close)

	now := time.Now().UTC()
	member := &store.User{ID: store.NewUUID(), GlobalRole: store.RoleMember, CreatedAt: now, UpdatedAt: now}
	require.NoError(t, e.in.Store.DB.Create(member).Error)
	cipher, err := credential.NewCipher(e.in.Config.EncryptionKey)
	require.NoError(t, err)
	sealed, err := cipher.Encrypt(map[string]any{"grantType": "clientCredentials", "accessTokenUrl": srv.URL + "/token",
		"clientId": "flowmill", "clientSecret": "s3cret", "scope": "", "authentication": "header"})
	require.NoError(t, err)
	cred := &store.Credential{Name: "Provider", Type: "oAuth2Api", Data: sealed}
	require.NoError(t, e.in.Store.CreateCredential(ctx, cred, member.ID))

	run := func() map[string]any {
		t.Helper()
		doc := fmt.Sprintf(`{"name":"OAuth %s","settings":{"saveManualExecutions":true},"nodes":[
			{"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}},
			{"name":"HTTP Request","type":"n8n-nodes-base.httpRequest","typeVersion":2,"position":[200,0],
			 "parameters":{"url":%q,"authentication":"genericCredentialType","genericAuthType":"oAuth2Api"},
			 "credentials":{"oAuth2Api":{"id":%q,"name":%q}}}],
			"connections":{"Start":{"main":[[{"node":"HTTP Request","type":"main","index":0}]]}}}`, store.NewID(), srv.URL+"/api/me", cred.ID, cred.Name)
		ex, state := e.runSaved(t, member.ID, doc)
		require.Equal(t, workflow.StatusSuccess, ex.Status, "%v", state["resultData"])
		return firstJSON(state, "HTTP Request")
	}
	require.Equal(t, map[string]any{"sub": "client:flowmill"}, run())
	require.Equal(t, 1, provider.Stats().ClientCredentials)
	stored, err := e.in.Store.GetCredential(ctx, cred.ID)
	require.NoError(t, err)
	data, err := cipher.Decrypt(stored.Data)
	require.NoError(t, err)
	token := credential.Token(data)
	require.NotEmpty(t, token["access_token"])

	token["expires_at"] = float64(time.Now().Add(-time.Minute).Unix())
	require.NoError(t, credential.SaveToken(ctx, e.in.Store, cipher, cred.ID, token))
	require.Equal(t, map[string]any{"sub": "client:flowmill"}, run())
	require.Equal(t, 2, provider.Stats().ClientCredentials, "the expired token was replaced")
}

// runSaved saves the workflow doc for userID, runs it manually and returns the finished
// execution with its run state.
func (e *env) runSaved(t *testing.T, userID, doc string) (*store.Execution, map[string]any) {
	t.Helper()
	wf, err := workflow.Parse([]byte(doc))
	require.NoError(t, err)
	saved := &store.Workflow{Name: wf.Name, Nodes: store.JSON(`[]`)}
	require.NoError(t, e.in.Store.CreateWorkflow(context.Background(), saved, userID))
	wf.ID = saved.ID
	ex := e.wait(t, e.run(t, wf, workflow.ModeManual, "").ID)
	return ex, e.state(t, ex.ID)
}

// firstJSON is the JSON of the first item node output in a run state.
func firstJSON(state map[string]any, node string) map[string]any {
	out := state["resultData"].(map[string]any)["runData"].(map[string]any)[node].([]any)[0].(map[string]any)
	return out["data"].(map[string]any)["main"].([]any)[0].([]any)[0].(map[string]any)["json"].(map[string]any)
}
