package workflow_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestObjectKeepsInsertionOrder(t *testing.T) {
	t.Parallel()
	o := workflow.NewObject(0)
	for _, k := range []string{"id", "name", "score", "tags", "nested"} {
		o.Set(k, k)
	}
	o.Set("name", "changed") // an existing key keeps its place
	require.Equal(t, []string{"id", "name", "score", "tags", "nested"}, o.Keys())
	require.Equal(t, "changed", o.Get("name"))

	o.Delete("score")
	o.Set("score", 1.0) // a key set again after a delete goes last, as in JavaScript
	require.Equal(t, []string{"id", "name", "tags", "nested", "score"}, o.Keys())
	v, ok := o.Lookup("missing")
	require.False(t, ok)
	require.Nil(t, v)
	require.Equal(t, 5, o.Len())
}

func TestObjectArrayIndexKeysComeFirst(t *testing.T) {
	t.Parallel()
	// JavaScript enumerates array-index keys first, ascending, then the others in insertion order.
	o := workflow.ObjectOf("b", 1, "10", 2, "a", 3, "2", 4, "01", 5, "4294967295", 6, "0", 7)
	require.Equal(t, []string{"0", "2", "10", "b", "a", "01", "4294967295"}, o.Keys())
	b, err := json.Marshal(o)
	require.NoError(t, err)
	require.Equal(t, `{"0":7,"2":4,"10":2,"b":1,"a":3,"01":5,"4294967295":6}`, string(b))
}

func TestObjectJSONRoundTrip(t *testing.T) {
	t.Parallel()
	in := `{"z":1,"a":{"y":[1,{"q":true,"b":null}],"x":"s"},"m":-2.5e-7,"html":"<a&b>","u":"é\u2028"}`
	var o workflow.Object
	require.NoError(t, json.Unmarshal([]byte(in), &o))
	require.Equal(t, []string{"z", "a", "m", "html", "u"}, o.Keys())
	nested := o.Get("a").(*workflow.Object)
	require.Equal(t, []string{"y", "x"}, nested.Keys())
	require.Equal(t, []string{"q", "b"}, nested.Get("y").([]any)[1].(*workflow.Object).Keys())

	out, err := json.Marshal(&o)
	require.NoError(t, err)
	// Members and numbers come back as written; strings are escaped as encoding/json does.
	want, err := json.Marshal(json.RawMessage(in))
	require.NoError(t, err)
	require.Equal(t, string(want), string(out))
	require.Equal(t, `{"z":1,"a":{"y":[1,{"q":true,"b":null}],"x":"s"},"m":-2.5e-7,"html":"\u003ca\u0026b\u003e","u":"é\u2028"}`, string(out))

	// An item round-trips with its json in order.
	var it workflow.Item
	require.NoError(t, json.Unmarshal([]byte(`{"json":{"b":1,"a":2},"pairedItem":{"item":0}}`), &it))
	b, err := json.Marshal(it)
	require.NoError(t, err)
	require.Equal(t, `{"json":{"b":1,"a":2},"pairedItem":{"item":0}}`, string(b))
}

func TestObjectRepeatedKeyKeepsFirstPlaceLastValue(t *testing.T) {
	t.Parallel()
	var o workflow.Object
	require.NoError(t, json.Unmarshal([]byte(`{"a":1,"b":2,"a":3}`), &o))
	require.Equal(t, []string{"a", "b"}, o.Keys())
	require.Equal(t, 3.0, o.Get("a"))

	require.Error(t, json.Unmarshal([]byte(`[1]`), &o), "an array is not an object")
	_, err := workflow.DecodeJSONValue([]byte(`{"a":1} {"b":2}`))
	require.Error(t, err, "only one document")
}

func TestObjectCloneIsIndependent(t *testing.T) {
	t.Parallel()
	o := workflow.ObjectOf("a", workflow.ObjectOf("x", 1.0), "list", []any{workflow.ObjectOf("y", 2.0)}, "m", map[string]any{"k": "v"})
	c := o.Clone()
	c.Get("a").(*workflow.Object).Set("x", 9.0)
	c.Get("list").([]any)[0].(*workflow.Object).Set("y", 9.0)
	c.Get("m").(map[string]any)["k"] = "changed"
	c.Set("added", true)
	require.Equal(t, 1.0, o.Get("a").(*workflow.Object).Get("x"))
	require.Equal(t, 2.0, o.Get("list").([]any)[0].(*workflow.Object).Get("y"))
	require.Equal(t, "v", o.Get("m").(map[string]any)["k"])
	require.False(t, o.Has("added"))
	require.True(t, workflow.DeepEqual(o, workflow.ObjectOf("m", map[string]any{"k": "v"}, "list", []any{map[string]any{"y": 2.0}}, "a", map[string]any{"x": 1.0})),
		"DeepEqual compares objects by keys, as lodash's isEqual does, and maps with objects")

	var nilObj *workflow.Object
	require.Nil(t, nilObj.Clone())
	require.Equal(t, 0, nilObj.Len())
	require.Nil(t, nilObj.Get("a"))
	b, err := json.Marshal(workflow.Item{})
	require.NoError(t, err)
	require.Equal(t, `{"json":null}`, string(b))
}

func TestObjectLargeUsesIndex(t *testing.T) {
	t.Parallel()
	o := workflow.NewObject(0)
	for i := range 100 {
		o.Set(fmt.Sprintf("k%d", i), i)
	}
	o.Delete("k50")
	o.Set("k0", -1)
	require.Equal(t, 99, o.Len())
	require.Equal(t, -1, o.Get("k0"))
	require.Equal(t, 99, o.Get("k99"))
	require.False(t, o.Has("k50"))
	require.Equal(t, "k51", o.Keys()[50])
}

func TestObjectPathsCreateOrderedObjects(t *testing.T) {
	t.Parallel()
	o := workflow.ObjectOf("z", 1.0)
	workflow.SetPath(o, "a.c", 1.0)
	workflow.SetPath(o, "a.b", 2.0)
	workflow.SetPath(o, "list[1].x", 3.0)
	b, err := json.Marshal(o)
	require.NoError(t, err)
	require.Equal(t, `{"z":1,"a":{"c":1,"b":2},"list":[null,{"x":3}]}`, string(b))
	v, ok := workflow.LookupPath(o, "a.b")
	require.True(t, ok)
	require.Equal(t, 2.0, v)
	workflow.UnsetPath(o, "a.c")
	require.Equal(t, []string{"b"}, o.Get("a").(*workflow.Object).Keys())
}

func TestFromMapsAndToMaps(t *testing.T) {
	t.Parallel()
	in := []any{"s", []any{map[string]any{"b": 1.0, "a": map[string]any{"d": 1.0, "c": 2.0}}}}
	conv := workflow.FromMaps(in)
	inner := conv.([]any)[1].([]any)[0].(*workflow.Object)
	require.Equal(t, []string{"a", "b"}, inner.Keys(), "a map has no order: keys come sorted")
	require.Equal(t, []string{"c", "d"}, inner.Get("a").(*workflow.Object).Keys())
	require.IsType(t, map[string]any{}, in[1].([]any)[0], "the input is not changed")
	require.Equal(t, in, workflow.ToMaps(conv))

	o, ok := workflow.AsObject(map[string]any{"x": 1.0})
	require.True(t, ok)
	require.Equal(t, []string{"x"}, o.Keys())
	_, ok = workflow.AsObject("text")
	require.False(t, ok)
}
