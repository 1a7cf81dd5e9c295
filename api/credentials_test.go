package main

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
)

func TestCredentialsListShowsWhatTheUserMaySee(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "mia@example.com", "Mia")
	ctx := context.Background()
	ownerUser, err := e.in.Store.Owner(ctx)
	require.NoError(t, err)
	memberUser, err := e.in.Store.GetUserByEmail(ctx, "mia@example.com")
	require.NoError(t, err)

	create := func(name, typ, ownerID string, access string) *store.Credential {
		c := &store.Credential{Name: name, Type: typ, Data: "sealed-secret", NodesAccess: store.JSON(access)}
		require.NoError(t, e.in.Store.CreateCredential(ctx, c, ownerID))
		return c
	}
	orders := create("Orders", "httpBasicAuth", ownerUser.ID, `[{"nodeType":"n8n-nodes-base.httpRequest","date":"2024-01-02T03:04:05.000Z"}]`)
	create("Billing", "httpHeaderAuth", ownerUser.ID, "")
	mine := create("Mine", "httpBasicAuth", memberUser.ID, "")

	list := func(p *person, query string) []map[string]any {
		t.Helper()
		var out []map[string]any
		p.ok(t, "GET", "rest/credentials"+query, "", &out)
		return out
	}
	names := func(items []map[string]any) []string {
		var out []string
		for _, c := range items {
			out = append(out, c["name"].(string))
		}
		return out
	}

	all := list(owner, "")
	require.Equal(t, []string{"Billing", "Mine", "Orders"}, names(all), "the owner sees every credential, by name")
	for _, c := range all {
		require.ElementsMatch(t, []string{"id", "name", "type", "nodesAccess", "createdAt", "updatedAt"}, keys(c), "never the data")
	}
	o := all[2]
	require.Equal(t, orders.ID, o["id"])
	require.Equal(t, "httpBasicAuth", o["type"])
	require.Equal(t, []any{map[string]any{"nodeType": "n8n-nodes-base.httpRequest", "date": "2024-01-02T03:04:05.000Z"}}, o["nodesAccess"])
	require.Equal(t, []any{}, all[0]["nodesAccess"])

	require.Equal(t, []string{"Mine", "Orders"}, names(list(owner, "?filter="+url.QueryEscape(`{"type":"httpBasicAuth"}`))))
	require.Empty(t, list(owner, "?filter="+url.QueryEscape(`{"type":"githubApi"}`)))
	member1 := list(member, "")
	require.Equal(t, []string{"Mine"}, names(member1), "a member sees the credentials shared with them")
	require.Equal(t, mine.ID, member1[0]["id"])

	status, b := owner.call(t, "GET", "rest/credentials?filter="+url.QueryEscape(`{"type":`), "")
	require.Equal(t, 400, status, string(b))
	var eb errorBody
	require.NoError(t, json.Unmarshal(b, &eb))
	require.Contains(t, eb.Message, "The filter must be a JSON object")
	status, _ = e.person().call(t, "GET", "rest/credentials", "")
	require.Equal(t, 401, status)
}

func TestCredentialTypesListTheirProperties(t *testing.T) {
	e := startServer(t, nil)
	res, b := e.do(t, "GET", "rest/credential-types", "")
	require.Equal(t, 200, res.StatusCode, string(b))
	var types []struct {
		Name        string `json:"name"`
		DisplayName string `json:"displayName"`
		GenericAuth bool   `json:"genericAuth"`
		Properties  []struct {
			Name string `json:"name"`
		} `json:"properties"`
	}
	decodeData(t, b, &types)
	byName := map[string]int{}
	for i, typ := range types {
		byName[typ.Name] = i
	}
	basic, ok := byName["httpBasicAuth"]
	require.True(t, ok, "the HTTP basic auth type is listed")
	require.Equal(t, "Basic Auth", types[basic].DisplayName)
	require.True(t, types[basic].GenericAuth)
	var props []string
	for _, p := range types[basic].Properties {
		props = append(props, p.Name)
	}
	require.Equal(t, []string{"user", "password"}, props)
	status, _ := e.person().call(t, "GET", "rest/credential-types", "")
	require.Equal(t, 401, status)
}
