package templates_test

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/templates"
)

const okWorkflow = `{"nodes":[{"name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"parameters":{}}],"connections":{}}`

func catalogueFS(categories, collections string, workflows ...string) fstest.MapFS {
	fsys := fstest.MapFS{
		"categories.json":  {Data: []byte(categories)},
		"collections.json": {Data: []byte(collections)},
	}
	for i, w := range workflows {
		fsys["workflows/"+string(rune('a'+i))+".json"] = &fstest.MapFile{Data: []byte(w)}
	}
	return fsys
}

// A catalogue whose references do not resolve is refused with a message naming the file.
func TestLoadRefusesBrokenCatalogues(t *testing.T) {
	t.Parallel()
	cats := `[{"id":1,"name":"Ops"}]`
	tpl := func(id, cat, wf string) string {
		return `{"id":` + id + `,"name":"T` + id + `","description":"d","categories":["` + cat + `"],"author":"a","createdAt":"2024-01-01T00:00:00Z","workflow":` + wf + `}`
	}
	for name, tc := range map[string]struct {
		fsys fstest.MapFS
		want string
	}{
		"unknown category":       {catalogueFS(cats, `[]`, tpl("1", "Nope", okWorkflow)), `a.json: category "Nope" is not in categories.json`},
		"template id used twice": {catalogueFS(cats, `[]`, tpl("1", "Ops", okWorkflow), tpl("1", "Ops", okWorkflow)), "template id 1 is used twice"},
		"no nodes":               {catalogueFS(cats, `[]`, tpl("1", "Ops", `{"nodes":[],"connections":{}}`)), "the workflow has no nodes"},
		"dangling connection": {catalogueFS(cats, `[]`, tpl("1", "Ops",
			`{"nodes":[{"name":"A","type":"x.y","typeVersion":1}],"connections":{"B":{"main":[]}}}`)), `a connection leaves node "B", which does not exist`},
		"collection of a missing template": {catalogueFS(cats, `[{"id":1,"name":"C","categories":["Ops"],"createdAt":"2024-01-01T00:00:00Z","workflows":[7]}]`, tpl("1", "Ops", okWorkflow)),
			"template 7 does not exist"},
		"category twice": {catalogueFS(`[{"id":1,"name":"Ops"},{"id":2,"name":"Ops"}]`, `[]`), `category "Ops" is listed twice`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := templates.Load(tc.fsys, registry())
			require.ErrorContains(t, err, tc.want)
		})
	}

	c, err := templates.Load(catalogueFS(cats, `[]`, tpl("1", "Ops", okWorkflow)), registry())
	require.NoError(t, err)
	got, ok := c.Template(1)
	require.True(t, ok)
	require.Equal(t, "Manual Trigger", got.Nodes[0].DisplayName)
	require.False(t, got.NeedsCredentials())
}
