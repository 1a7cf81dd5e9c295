package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestInvitationsAndSignUp(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	def := e.person()
	def.ok(t, "GET", "rest/login", "", nil)
	status, b := def.call(t, "POST", "rest/users", `[{"email":"a@example.com"}]`)
	requireError(t, status, b, 400, "You must set up your own account before inviting others")

	owner := setUpOwner(t, e)
	for _, bad := range []struct{ body, msg string }{
		{`[]`, "No users to invite"},
		{`{"email":"a@example.com"}`, "The body must be a list of invitations"},
		{`[{"email":"a@example.com"},{"email":"not an email"}]`, "not an email is not a valid email"},
		{`[{"email":"Ann <ann@example>"}]`, "Ann <ann@example> is not a valid email"},
		{`[{"email":"a@example.com","role":"owner"}]`, `Only the member role can be invited, not "owner"`},
		{"[" + strings.Repeat(`{"email":"a@example.com"},`, 100) + `{"email":"a@example.com"}]`, "At most 100 users"},
	} {
		status, b := owner.call(t, "POST", "rest/users", bad.body)
		requireError(t, status, b, 400, bad.msg)
	}
	var users []userResponse
	owner.ok(t, "GET", "rest/users", "", &users)
	require.Len(t, users, 1, "a refused invitation creates nobody")

	// Two addresses, one in "Name <address>" form and one repeated, and the owner's own address.
	var out []inviteResult
	owner.ok(t, "POST", "rest/users", `[{"email":"Ann Lee <ANN@example.com>"},{"email":"bob@example.com","role":"member"},
		{"email":"ann@example.com"},{"email":"owner@example.com"}]`, &out)
	require.Len(t, out, 3)
	require.Equal(t, "ann@example.com", out[0].User.Email)
	require.NotNil(t, out[0].User.ID)
	require.Empty(t, out[0].User.Error)
	require.Equal(t, "bob@example.com", out[1].User.Email)
	require.Equal(t, "owner@example.com", out[2].User.Email)
	require.Nil(t, out[2].User.ID)
	require.Equal(t, "There is already an account with this email", out[2].User.Error)
	mails := map[string][]string{}
	for range 2 {
		m := smtp.Next(t)
		require.Equal(t, "You have been invited to Flowmill", m.Subject)
		mails[m.To] = m.Links()
	}
	annID, bobID := *out[0].User.ID, *out[1].User.ID
	link := mustURL(t, mails["ann@example.com"][1])
	require.Equal(t, "https://flow.example.com/flow/signup", link.Scheme+"://"+link.Host+link.Path, "links honour the public URL and base path")
	require.Equal(t, annID, link.Query().Get("inviteeId"))
	inviterID, token := link.Query().Get("inviterId"), link.Query().Get("token")
	require.Len(t, token, 43, "a random 32-byte token")
	var stored []store.AuthToken
	require.NoError(t, e.in.Store.DB.Where("user_id = ?", annID).Find(&stored).Error)
	require.Len(t, stored, 1)
	require.NotContains(t, stored[0].TokenHash, token, "only the token's hash is stored")

	// The list shows pending users without survey answers.
	owner.ok(t, "GET", "rest/users", "", &users)
	require.Len(t, users, 3)
	_, b = owner.call(t, "GET", "rest/users", "")
	require.NotContains(t, string(b), "personalizationAnswers")
	require.NotContains(t, string(b), "password")
	for _, u := range users {
		if u.ID == annID {
			require.True(t, u.IsPending)
			require.Equal(t, roleResponse{ID: 2, Name: "member", Scope: "global"}, u.GlobalRole)
		}
	}

	// Resolving the link names the inviter; broken links are refused alike.
	ann := e.person()
	var resolved struct {
		Inviter struct{ FirstName, LastName string } `json:"inviter"`
	}
	ann.ok(t, "GET", "rest/resolve-signup-token?"+link.RawQuery, "", &resolved)
	require.Equal(t, "Olga", resolved.Inviter.FirstName)
	require.Equal(t, "Owner", resolved.Inviter.LastName)
	// The ids alone are not enough: the link's token is needed, and only the invitee's own.
	bobToken := mustURL(t, mails["bob@example.com"][1]).Query().Get("token")
	for _, q := range []string{"inviterId=" + inviterID + "&token=" + token, "inviterId=" + inviterID + "&inviteeId=" + store.NewUUID() + "&token=" + token,
		"inviterId=" + bobID + "&inviteeId=" + annID + "&token=" + token, "inviterId=" + annID + "&inviteeId=" + annID + "&token=" + token,
		"inviterId=" + inviterID + "&inviteeId=" + annID, "inviterId=" + inviterID + "&inviteeId=" + annID + "&token=" + bobToken,
		"inviterId=" + inviterID + "&inviteeId=" + annID + "&token=" + token[:42] + "x"} {
		status, b := ann.call(t, "GET", "rest/resolve-signup-token?"+q, "")
		require.Equal(t, 400, status, "%s: %s", q, b)
	}

	signUp := fmt.Sprintf(`{"inviterId":%q,"token":%q,"firstName":"Ann","lastName":"Lee","password":%q}`, inviterID, token, testPassword)
	status, b = ann.call(t, "POST", "rest/users/"+annID, fmt.Sprintf(`{"inviterId":%q,"token":%q,"firstName":"Ann","lastName":"Lee","password":"weak"}`, inviterID, token))
	requireError(t, status, b, 400, "Password must be 8 to 64 characters long.")
	status, b = ann.call(t, "POST", "rest/users/"+annID, fmt.Sprintf(`{"inviterId":%q,"token":%q,"firstName":"","lastName":"Lee","password":%q}`, inviterID, token, testPassword))
	requireError(t, status, b, 400, "firstName must be 1 to 32 characters long.")
	status, b = ann.call(t, "POST", "rest/users/"+annID, fmt.Sprintf(`{"inviterId":%q,"token":%q,"firstName":"Ann","lastName":"Lee","password":%q}`, bobID, token, testPassword))
	requireError(t, status, b, 400, "Invalid invite URL")
	status, b = ann.call(t, "POST", "rest/users/"+annID, fmt.Sprintf(`{"inviterId":%q,"token":%q,"firstName":"Ann","lastName":"Lee","password":%q}`, inviterID, bobToken, testPassword))
	requireError(t, status, b, 400, "Invalid invite URL")
	status, b = ann.call(t, "POST", "rest/users/"+annID, fmt.Sprintf(`{"inviterId":%q,"firstName":"Ann","lastName":"Lee","password":%q}`, inviterID, testPassword))
	requireError(t, status, b, 400, "token are all required")
	var me userResponse
	ann.ok(t, "POST", "rest/users/"+annID, signUp, &me)
	require.False(t, me.IsPending)
	require.Equal(t, "Ann", *me.FirstName)
	ann.ok(t, "GET", "rest/me", "", &me)
	status, b = e.person().call(t, "POST", "rest/users/"+annID, signUp)
	requireError(t, status, b, 400, "This invite has been accepted already")
	status, b = ann.call(t, "GET", "rest/resolve-signup-token?"+link.RawQuery, "")
	requireError(t, status, b, 400, "This invite has been accepted already")

	// Re-invite sends a new link, only to pending users; the older link stops working.
	owner.ok(t, "POST", "rest/users/"+bobID+"/reinvite", "", nil)
	again := smtp.Next(t)
	require.Equal(t, "bob@example.com", again.To)
	newLink := mustURL(t, again.Links()[1])
	require.Equal(t, bobID, newLink.Query().Get("inviteeId"))
	require.NotEqual(t, bobToken, newLink.Query().Get("token"))
	status, b = ann.call(t, "GET", "rest/resolve-signup-token?"+mustURL(t, mails["bob@example.com"][1]).RawQuery, "")
	requireError(t, status, b, 400, "Invalid invite URL")
	e.person().ok(t, "GET", "rest/resolve-signup-token?"+newLink.RawQuery, "", nil)
	// Invitation links expire after 7 days.
	e.srv.clock = func() time.Time { return time.Now().Add(7*24*time.Hour + time.Minute) }
	status, b = e.person().call(t, "GET", "rest/resolve-signup-token?"+newLink.RawQuery, "")
	requireError(t, status, b, 400, "Invalid invite URL")
	e.srv.clock = nil
	status, b = owner.call(t, "POST", "rest/users/"+annID+"/reinvite", "")
	requireError(t, status, b, 400, "User has already accepted the invite")
	status, b = owner.call(t, "POST", "rest/users/"+store.NewUUID()+"/reinvite", "")
	requireError(t, status, b, 404, "Could not find user")
	// Inviting a pending address again mails it again.
	owner.ok(t, "POST", "rest/users", `[{"email":"bob@example.com"}]`, &out)
	require.Equal(t, bobID, *out[0].User.ID)
	require.Equal(t, "bob@example.com", smtp.Next(t).To)
}

func TestMembersSeeOnlyTheirOwnAndDeletion(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	ann, annID := signUpMember(t, owner, smtp, "ann@example.com", "Ann")
	bob, bobID := signUpMember(t, owner, smtp, "bob@example.com", "Bob")

	var ownersWF, annsWF, bobsWF workflowJSON
	owner.ok(t, "POST", "rest/workflows", `{"name":"Owner's"}`, &ownersWF)
	ann.ok(t, "POST", "rest/workflows", `{"name":"Ann's"}`, &annsWF)
	bob.ok(t, "POST", "rest/workflows", `{"name":"Bob's"}`, &bobsWF)
	ownerRuns := seedExecutions(t, e, 2, ownersWF.ID, workflow.StatusSuccess)
	annRuns := seedExecutions(t, e, 1, annsWF.ID, workflow.StatusError)
	seedExecutions(t, e, 1, bobsWF.ID, workflow.StatusSuccess)

	var list []workflowJSON
	ann.ok(t, "GET", "rest/workflows", "", &list)
	require.Len(t, list, 1)
	require.Equal(t, annsWF.ID, list[0].ID)
	owner.ok(t, "GET", "rest/workflows", "", &list)
	require.Len(t, list, 3, "the owner sees every workflow")
	status, _ := ann.call(t, "GET", "rest/workflows/"+ownersWF.ID, "")
	require.Equal(t, 404, status)
	status, _ = ann.call(t, "PATCH", "rest/workflows/"+bobsWF.ID, `{"name":"mine now"}`)
	require.Equal(t, 404, status)
	status, _ = ann.call(t, "DELETE", "rest/workflows/"+bobsWF.ID, "")
	require.Equal(t, 404, status)

	var page struct {
		Count   int                `json:"count"`
		Results []executionSummary `json:"results"`
	}
	ann.ok(t, "GET", "rest/executions", "", &page)
	require.Equal(t, 1, page.Count)
	require.Equal(t, fmt.Sprint(annRuns[0]), page.Results[0].ID)
	ann.ok(t, "GET", fmt.Sprintf(`rest/executions?filter={"workflowId":%q}`, ownersWF.ID), "", &page)
	require.Equal(t, 0, page.Count)
	owner.ok(t, "GET", "rest/executions", "", &page)
	require.Equal(t, 4, page.Count)
	status, _ = ann.call(t, "GET", fmt.Sprintf("rest/executions/%d", ownerRuns[0]), "")
	require.Equal(t, 404, status)
	ann.ok(t, "GET", fmt.Sprintf("rest/executions/%d", annRuns[0]), "", nil)
	status, _ = ann.call(t, "POST", fmt.Sprintf("rest/executions/%d/retry", ownerRuns[0]), "")
	require.Equal(t, 404, status)
	status, _ = ann.call(t, "POST", fmt.Sprintf("rest/executions-current/%d/stop", ownerRuns[0]), "")
	require.Equal(t, 404, status)
	var current []executionSummary
	ann.ok(t, "GET", "rest/executions-current", "", &current)
	require.Empty(t, current)
	ann.ok(t, "POST", "rest/executions/delete", fmt.Sprintf(`{"ids":["%d","%d"]}`, ownerRuns[0], annRuns[0]), nil)
	owner.ok(t, "GET", "rest/executions", "", &page)
	require.Equal(t, 3, page.Count, "only Ann's own execution was deleted")
	ann.ok(t, "POST", "rest/executions/delete", `{"deleteBefore":"2100-01-01T00:00:00Z"}`, nil)
	owner.ok(t, "GET", "rest/executions", "", &page)
	require.Equal(t, 3, page.Count, "deleting by date only reaches the member's executions")

	// Running the owner's saved workflow is refused to a member.
	run := fmt.Sprintf(`{"workflowData":{"id":%q,"name":"x","nodes":[{"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}}],"connections":{}}}`, ownersWF.ID)
	status, b := ann.call(t, "POST", "rest/workflows/run", run)
	requireError(t, status, b, 404, "Workflow with ID "+ownersWF.ID+" could not be found")

	// Deleting users: not oneself, transfer to another user, or delete the data.
	status, b = owner.call(t, "DELETE", "rest/users/"+sessionID(t, owner), "")
	requireError(t, status, b, 400, "Cannot delete your own user")
	status, b = owner.call(t, "DELETE", "rest/users/"+annID+"?transferId="+annID, "")
	requireError(t, status, b, 400, "must differ")
	status, b = owner.call(t, "DELETE", "rest/users/"+annID+"?transferId="+store.NewUUID(), "")
	requireError(t, status, b, 404, "does not exist")
	owner.ok(t, "DELETE", "rest/users/"+annID+"?transferId="+bobID, "", nil)
	status, _ = ann.call(t, "GET", "rest/me", "")
	require.Equal(t, 401, status, "a deleted user's session ends")
	bob.ok(t, "GET", "rest/workflows", "", &list)
	require.Len(t, list, 2, "Ann's workflow went to Bob")
	bob.ok(t, "GET", "rest/executions", "", &page)
	require.Equal(t, 1, page.Count, "with its executions (Ann's own was deleted above)")

	owner.ok(t, "DELETE", "rest/users/"+bobID, "", nil)
	owner.ok(t, "GET", "rest/workflows", "", &list)
	require.Len(t, list, 1, "without a transfer the workflows are deleted")
	require.Equal(t, ownersWF.ID, list[0].ID)
	status, _ = owner.call(t, "DELETE", "rest/users/"+bobID, "")
	require.Equal(t, 404, status)
}

func sessionID(t *testing.T, p *person) string {
	t.Helper()
	var me userResponse
	p.ok(t, "GET", "rest/me", "", &me)
	return me.ID
}
