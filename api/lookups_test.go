package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store/storetest"
)

// lookupDatabase creates a Postgres database with a table of orders for one test and returns
// its name.
func lookupDatabase(t *testing.T) string {
	t.Helper()
	u, drop, err := storetest.CreateDatabase(context.Background(), storetest.PostgresURL())
	require.NoError(t, err, "postgres on 127.0.0.1:5432 is needed")
	t.Cleanup(drop)
	db, err := sql.Open("pgx", u)
	require.NoError(t, err)
	defer db.Close()
	_, err = db.Exec(`CREATE TABLE orders (id serial PRIMARY KEY, item text NOT NULL, qty int)`)
	require.NoError(t, err)
	parsed, err := url.Parse(u)
	require.NoError(t, err)
	return strings.TrimPrefix(parsed.Path, "/")
}

func postgresCredential(t *testing.T, p *person, name, database string) credentialJSON {
	t.Helper()
	var c credentialJSON
	p.ok(t, "POST", "rest/credentials", fmt.Sprintf(`{"name":%q,"type":"postgres","nodesAccess":[{"nodeType":"n8n-nodes-base.postgres"}],
		"data":{"host":"127.0.0.1","port":5432,"database":%q,"user":"postgres","password":"","ssl":"disable"}}`, name, database), &c)
	return c
}

// lookupQuery is the query of an editor lookup for a Postgres 2.5 node using cred.
func lookupQuery(endpoint, method string, cred credentialJSON, params string) string {
	q := url.Values{}
	q.Set("nodeTypeAndVersion", `{"name":"n8n-nodes-base.postgres","version":2.5}`)
	q.Set("methodName", method)
	q.Set("path", "parameters.table")
	q.Set("currentNodeParameters", params)
	q.Set("credentials", fmt.Sprintf(`{"postgres":{"id":%q,"name":%q}}`, cred.ID, cred.Name))
	return "rest/" + endpoint + "?" + q.Encode()
}

const ordersParams = `{"operation":"insert","schema":{"__rl":true,"mode":"list","value":"public"},"table":{"__rl":true,"mode":"list","value":"orders"}}`

// Lookups use the credentials the signed-in user may use, as their runs do: a member cannot
// list the tables behind the owner's credential, the owner may use every credential.
func TestLookupsUseTheCallersCredentials(t *testing.T) {
	database := lookupDatabase(t)
	e, smtp := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "lea@example.com", "Lea")
	ownerCred := postgresCredential(t, owner, "Owner's Postgres", database)
	memberCred := postgresCredential(t, member, "Lea's Postgres", database)

	var tables listSearchJSON
	member.ok(t, "GET", lookupQuery("nodes-list-search", "tableSearch", memberCred, `{}`), "", &tables)
	require.Len(t, tables.Results, 1)
	require.Equal(t, "orders", tables.Results[0].Value)

	var options []struct {
		Name, Value, Description string
	}
	member.ok(t, "GET", lookupQuery("node-parameter-options", "getColumns", memberCred, ordersParams), "", &options)
	require.Len(t, options, 3)
	require.Equal(t, "item", options[1].Value)
	require.Equal(t, "Type: TEXT, Nullable: NO", options[1].Description)

	var fields struct {
		Fields []struct {
			ID           string `json:"id"`
			Type         string `json:"type"`
			Required     bool   `json:"required"`
			DefaultMatch bool   `json:"defaultMatch"`
		} `json:"fields"`
	}
	member.ok(t, "GET", lookupQuery("get-mapping-fields", "getMappingColumns", memberCred, ordersParams), "", &fields)
	require.Len(t, fields.Fields, 3)
	require.Equal(t, "id", fields.Fields[0].ID)
	require.True(t, fields.Fields[0].DefaultMatch)
	require.False(t, fields.Fields[0].Required, "serial has a default")
	require.Equal(t, "string", fields.Fields[1].Type)
	require.True(t, fields.Fields[1].Required)

	want := fmt.Sprintf(`Credential with ID %q does not exist for type "postgres".`, ownerCred.ID)
	for _, endpoint := range []struct{ path, method string }{
		{"nodes-list-search", "tableSearch"}, {"node-parameter-options", "getColumns"}, {"get-mapping-fields", "getMappingColumns"},
	} {
		status, b := member.call(t, "GET", lookupQuery(endpoint.path, endpoint.method, ownerCred, ordersParams), "")
		require.Equal(t, 404, status, string(b))
		var body struct{ Message string }
		require.NoError(t, json.Unmarshal(b, &body))
		require.True(t, strings.HasPrefix(body.Message, "Problem loading the "), body.Message)
		require.True(t, strings.HasSuffix(body.Message, ": "+want), "a member cannot use the owner's credential: %s", body.Message)
	}
	owner.ok(t, "GET", lookupQuery("nodes-list-search", "tableSearch", memberCred, `{}`), "", &tables)
	require.Len(t, tables.Results, 1, "the instance owner may use every credential, as in runs")

	status, b := member.call(t, "GET", lookupQuery("get-mapping-fields", "nothing", memberCred, ordersParams), "")
	require.Equal(t, 404, status, string(b))
	status, _ = member.call(t, "GET", strings.Replace(lookupQuery("get-mapping-fields", "getMappingColumns", memberCred, ordersParams), "methodName=getMappingColumns", "", 1), "")
	require.Equal(t, 400, status)
	status, _ = e.person().call(t, "GET", lookupQuery("get-mapping-fields", "getMappingColumns", memberCred, ordersParams), "")
	require.Equal(t, 401, status)
}

// A lookup gets the egress policy a run gets: an address runs may not reach is refused to the
// editor's lookups the same way.
func TestLookupsFollowTheRunsEgressPolicy(t *testing.T) {
	database := lookupDatabase(t)
	e := startWithWorker(t, map[string]string{"FLOWMILL_EGRESS_DENY": "127.0.0.1/32"})
	owner := setUpOwner(t, e)
	cred := postgresCredential(t, owner, "Postgres", database)

	doc := line("Reads orders", fmt.Sprintf(`{"name":"Postgres","type":"n8n-nodes-base.postgres","typeVersion":2.5,"position":[200,0],
		"parameters":{"operation":"select","schema":{"__rl":true,"mode":"list","value":"public"},"table":{"__rl":true,"mode":"list","value":"orders"},"returnAll":true,"options":{}},
		"credentials":{"postgres":{"id":%q,"name":%q}}}`, cred.ID, cred.Name))
	_, runErr := runManually(t, owner, doc, true, "Postgres")
	require.Equal(t, "The address 127.0.0.1 is not allowed (FLOWMILL_EGRESS_DENY).", runErr)

	for _, endpoint := range []struct{ path, method, prefix string }{
		{"nodes-list-search", "tableSearch", "Problem loading the list: "},
		{"node-parameter-options", "getColumns", "Problem loading the parameter options: "},
		{"get-mapping-fields", "getMappingColumns", "Problem loading the fields: "},
	} {
		status, b := owner.call(t, "GET", lookupQuery(endpoint.path, endpoint.method, cred, ordersParams), "")
		require.Equal(t, 500, status, string(b))
		var body struct{ Message string }
		require.NoError(t, json.Unmarshal(b, &body))
		require.Equal(t, endpoint.prefix+runErr, body.Message)
	}
}
