package mysql_test

import (
	"context"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/mysql"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

func lookup(version float64, params, creds m, host nodes.Host) nodes.LoadOptionsRequest {
	return nodes.LoadOptionsRequest{NodeType: "n8n-nodes-base.mySql", Version: version, Parameters: params,
		Credentials: m{"mySql": m{"id": "1", "name": "db"}}, Host: host,
		Lookup: func(context.Context, nodes.CredentialRef) (map[string]any, error) { return creds, nil }}
}

func tables(t *testing.T, typ nodes.Type, req nodes.LoadOptionsRequest, filter string) []string {
	t.Helper()
	res, err := typ.ListSearch["searchTables"](context.Background(), nodes.ListSearchRequest{LoadOptionsRequest: req, Filter: filter})
	require.NoError(t, err)
	out := []string{}
	for _, r := range res.Results {
		require.Equal(t, r.Name, r.Value)
		out = append(out, r.Name)
	}
	return out
}

func columnValues(t *testing.T, opts []nodes.OptionValue, err error) []any {
	t.Helper()
	require.NoError(t, err)
	out := []any{}
	for _, o := range opts {
		out = append(out, o.Value)
	}
	return out
}

func TestLookupsListTablesAndColumns(t *testing.T) {
	creds, db := scratch(t)
	exec(t, db, "CREATE TABLE orders (id INT PRIMARY KEY, total DECIMAL(10,2) NULL, note VARCHAR(20) NOT NULL)",
		"CREATE TABLE order_lines (id INT)", "CREATE TABLE `Odd %_ name` (x INT)")
	v1, v2 := mysql.Type(), mysql.TypeV2()
	for _, tc := range []struct {
		typ     nodes.Type
		version float64
	}{{v1, 1}, {v2, 2.4}} {
		req := lookup(tc.version, m{}, creds, allowLoopback)
		// in the server's collation order
		require.ElementsMatch(t, []string{"Odd %_ name", "order_lines", "orders"}, tables(t, tc.typ, req, ""))
		require.ElementsMatch(t, []string{"order_lines", "orders"}, tables(t, tc.typ, req, "ORDER"), "any case")
		require.Equal(t, []string{"Odd %_ name"}, tables(t, tc.typ, req, "%_"), "% and _ are plain text")
	}

	ctx := context.Background()
	params := m{"table": m{"__rl": true, "mode": "list", "value": "orders"}, "columnToMatchOn": "id"}
	opts, err := v2.LoadOptions["getColumns"](ctx, lookup(2.4, params, creds, allowLoopback))
	require.Equal(t, []any{"id", "total", "note"}, columnValues(t, opts, err))
	require.Equal(t, nodes.OptionValue{Name: "total", Value: "total", Description: "type: DECIMAL(10,2), nullable: YES"}, opts[1])
	require.Equal(t, "type: VARCHAR(20), nullable: NO", opts[2].Description)

	opts, err = v2.LoadOptions["getColumnsMultiOptions"](ctx, lookup(2.4, params, creds, allowLoopback))
	require.Equal(t, []any{"*", "id", "total", "note"}, columnValues(t, opts, err))
	opts, err = v2.LoadOptions["getColumnsWithoutColumnToMatchOn"](ctx, lookup(2.4, params, creds, allowLoopback))
	require.Equal(t, []any{"total", "note"}, columnValues(t, opts, err))

	// names are values, never SQL
	opts, err = v2.LoadOptions["getColumns"](ctx, lookup(2.4, m{"table": "orders`; DROP TABLE orders; --"}, creds, allowLoopback))
	require.Empty(t, columnValues(t, opts, err))
	require.Empty(t, tables(t, v2, lookup(2.4, m{}, creds, allowLoopback), "x' OR '1'='1"))

	_, err = v2.LoadOptions["getColumns"](ctx, lookup(2.4, m{}, creds, allowLoopback))
	require.EqualError(t, err, "Select a table first")
}

// A lookup connects only where a run may: the egress policy of the host refuses it the same way.
func TestLookupsFollowTheEgressPolicy(t *testing.T) {
	creds, _ := scratch(t)
	deny := nodes.Host{HTTP: egress.New(nil, []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}).Client(egress.Options{})}
	n := node(2.4, m{"operation": "select", "table": m{"__rl": true, "mode": "list", "value": "x"}, "returnAll": true}, creds, false)
	n.Host = deny
	_, runErr := nodetest.Run(t, mysql.TypeV2(), n, nodetest.Items(m{}))
	ne := nodetest.NodeError(t, runErr)
	require.Equal(t, "The address 127.0.0.1 is not allowed (FLOWMILL_EGRESS_DENY).", ne.Message)

	_, err := mysql.TypeV2().ListSearch["searchTables"](context.Background(), nodes.ListSearchRequest{LoadOptionsRequest: lookup(2.4, m{}, creds, deny)})
	require.EqualError(t, err, ne.Message)
	_, err = mysql.TypeV2().LoadOptions["getColumns"](context.Background(), lookup(2.4, m{"table": "x"}, creds, deny))
	require.EqualError(t, err, ne.Message)
}
