// Package postgres is the Postgres node: version 1 (execute a query, insert and update listed
// columns) and versions 2 to 2.5 (delete, execute query, insert, upsert, select and update on a
// table, with the query batching modes). Every query is parameterised; connections come from one
// pgx pool per credential and options, shared through connpool, and dial through the egress
// policy.
package postgres

import (
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
)

//go:embed v1.json
var v1JSON []byte

//go:embed v2.json
var v2JSON []byte

//go:embed postgres.svg
var iconSVG []byte

// TypeV1 is version 1.
func TypeV1() nodes.Type {
	t := nodes.Define(v1JSON, nodes.KindAction, executeV1)
	t.IconSVG = iconSVG
	return t
}

// TypeV2 is versions 2 to 2.5, with the editor's lookups (lookup.go).
func TypeV2() nodes.Type {
	t := nodes.Define(v2JSON, nodes.KindAction, executeV2)
	t.IconSVG = iconSVG
	t.ListSearch = map[string]nodes.ListSearchFunc{"schemaSearch": SchemaSearch, "tableSearch": TableSearch}
	t.LoadOptions = map[string]nodes.LoadOptionsFunc{
		"getColumns":                       getColumns,
		"getColumnsMultiOptions":           nodes.AllColumnsFirst(getColumns),
		"getColumnsWithoutColumnToMatchOn": nodes.WithoutColumnToMatchOn(getColumns),
	}
	t.ResourceMapping = map[string]nodes.ResourceMappingFunc{"getMappingColumns": getMappingColumns}
	return t
}
