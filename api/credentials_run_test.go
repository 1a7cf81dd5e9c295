package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/mail/mailtest"
)

// A credential made in the editor is used by a run (decrypted on the worker); once deleted, the
// workflow that names it fails with n8n's message, and a member's run cannot use the owner's.
func TestRunsUseCredentialsFromTheEditor(t *testing.T) {
	smtp := mailtest.Start(t)
	e := startWithWorker(t, map[string]string{
		"FLOWMILL_SMTP_HOST": smtp.Host, "FLOWMILL_SMTP_PORT": fmt.Sprint(smtp.Port), "FLOWMILL_SMTP_SSL": "false",
		"FLOWMILL_SMTP_SENDER": "Flowmill <flowmill@example.com>",
	})
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "mia@example.com", "Mia")
	var authorized atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, _ := r.BasicAuth(); u == "ada" && p == "pw-from-editor" {
			authorized.Add(1)
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	}))
	t.Cleanup(srv.Close)

	cred := createCredential(t, owner, "Orders", "httpBasicAuth", `{"user":"ada","password":"pw-from-editor"}`)
	_, errMsg := runManually(t, owner, useCredential(srv.URL, cred.ID, cred.Name), true, "HTTP Request")
	require.Empty(t, errMsg)
	require.Equal(t, int32(1), authorized.Load(), "the request carried the credential")

	want := fmt.Sprintf(`Credential with ID %q does not exist for type "httpBasicAuth".`, cred.ID)
	_, errMsg = runManually(t, member, useCredential(srv.URL, cred.ID, "Another name"), true, "HTTP Request")
	require.Contains(t, errMsg, want, "a member's run cannot use the owner's credential")

	owner.ok(t, "DELETE", "rest/credentials/"+cred.ID, "", nil)
	_, errMsg = runManually(t, owner, useCredential(srv.URL, cred.ID, cred.Name), true, "HTTP Request")
	require.Equal(t, want, errMsg, "a deleted credential fails the run, with n8n's message as it is")
	require.Equal(t, int32(1), authorized.Load())
}
