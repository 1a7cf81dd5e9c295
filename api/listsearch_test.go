package main

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"
)

type listSearchJSON struct {
	Results []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
		URL   string `json:"url"`
	} `json:"results"`
}

func listSearchQuery(filter string) string {
	q := url.Values{}
	q.Set("nodeTypeAndVersion", `{"name":"n8n-nodes-base.executeWorkflow","version":1.2}`)
	q.Set("methodName", "searchWorkflows")
	q.Set("path", "parameters.workflowId")
	q.Set("currentNodeParameters", `{}`)
	q.Set("filter", filter)
	return "rest/nodes-list-search?" + q.Encode()
}

func TestNodesListSearchWorkflowsByReader(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "ann@example.com", "Ann")

	var own, other workflowJSON
	owner.ok(t, "POST", "rest/workflows", `{"name":"Owner orders","nodes":[],"connections":{}}`, &own)
	member.ok(t, "POST", "rest/workflows", `{"name":"Ann orders","nodes":[],"connections":{}}`, &other)
	member.ok(t, "POST", "rest/workflows", `{"name":"Ann invoices","nodes":[],"connections":{}}`, nil)

	var got listSearchJSON
	member.ok(t, "GET", listSearchQuery(""), "", &got)
	names := []string{}
	for _, r := range got.Results {
		names = append(names, r.Name)
	}
	require.ElementsMatch(t, []string{"Ann orders", "Ann invoices"}, names, "a member sees only the workflows they may read")

	member.ok(t, "GET", listSearchQuery("ORDERS"), "", &got)
	require.Len(t, got.Results, 1)
	require.Equal(t, other.ID, got.Results[0].Value)
	require.Equal(t, "https://flow.example.com/flow/workflow/"+other.ID, got.Results[0].URL)

	owner.ok(t, "GET", listSearchQuery("orders"), "", &got)
	require.Len(t, got.Results, 2, "the owner sees every workflow")

	status, b := member.call(t, "GET", "rest/nodes-list-search?nodeTypeAndVersion=%7B%22name%22%3A%22n8n-nodes-base.set%22%2C%22version%22%3A1%7D&methodName=searchWorkflows", "")
	require.Equal(t, 404, status, string(b))
	status, _ = member.call(t, "GET", "rest/nodes-list-search?nodeTypeAndVersion=%7B%22name%22%3A%22n8n-nodes-base.set%22%2C%22version%22%3A1%7D", "")
	require.Equal(t, 400, status)
	status, _ = e.person().call(t, "GET", listSearchQuery(""), "")
	require.Equal(t, 401, status)
	_ = own
}
