package execution_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// TestHTTPRequestWithBasicAuth runs an HTTP Request node whose basic auth credential is stored
// encrypted, as a worker runs it: the node's credential reference is looked up by id among the
// workflow owner's credentials and decrypted for the request.
func TestHTTPRequestWithBasicAuth(t *testing.T) {
	e := setup(t)
	ctx := context.Background()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		if !ok || user != "ada" || pass != "s3cret" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"hello":%q}`, user)
	}))
	t.Cleanup(srv.Close)

	now := time.Now().UTC()
	member := &store.User{ID: store.NewUUID(), GlobalRole: store.RoleMember, CreatedAt: now, UpdatedAt: now}
	other := &store.User{ID: store.NewUUID(), GlobalRole: store.RoleMember, CreatedAt: now, UpdatedAt: now}
	for _, u := range []*store.User{member, other} {
		require.NoError(t, e.in.Store.DB.Create(u).Error)
	}
	cipher, err := credential.NewCipher(e.in.Config.EncryptionKey)
	require.NoError(t, err)
	newCredential := func(owner *store.User, name, password string) *store.Credential {
		sealed, err := cipher.Encrypt(map[string]any{"user": "ada", "password": password})
		require.NoError(t, err)
		c := &store.Credential{Name: name, Type: "httpBasicAuth", Data: sealed}
		require.NoError(t, e.in.Store.CreateCredential(ctx, c, owner.ID))
		return c
	}
	mine := newCredential(member, "Orders API", "s3cret")
	theirs := newCredential(other, "Their API", "s3cret")

	runWith := func(credID, credName string) (*store.Execution, map[string]any) {
		doc := fmt.Sprintf(`{"name":"Auth %s","settings":{"saveManualExecutions":true},"nodes":[
			{"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}},
			{"name":"HTTP Request","type":"n8n-nodes-base.httpRequest","typeVersion":1,"position":[200,0],
			 "parameters":{"url":%q,"authentication":"basicAuth"},
			 "credentials":{"httpBasicAuth":{"id":%q,"name":%q}}}],
			"connections":{"Start":{"main":[[{"node":"HTTP Request","type":"main","index":0}]]}}}`, store.NewID(), srv.URL, credID, credName)
		return e.runSaved(t, member.ID, doc)
	}

	ex, state := runWith(mine.ID, mine.Name)
	require.Equal(t, workflow.StatusSuccess, ex.Status, "%v", state["resultData"])
	require.Equal(t, map[string]any{"hello": "ada"}, firstJSON(state, "HTTP Request"))

	ex, _ = runWith("", "Orders API")
	require.Equal(t, workflow.StatusSuccess, ex.Status, "a credential named on the node is found by its name")

	ex, state = runWith(theirs.ID, theirs.Name)
	require.Equal(t, workflow.StatusError, ex.Status, "a workflow cannot use credentials its owner may not see")
	require.Contains(t, fmt.Sprint(state["resultData"]), fmt.Sprintf(`Credential with ID %q does not exist for type "httpBasicAuth".`, theirs.ID))
}
