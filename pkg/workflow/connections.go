package workflow

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Connection is one edge end: the destination node, the connection type ("main") and the input
// index on the destination.
type Connection struct {
	Node  string `json:"node"`
	Type  string `json:"type"`
	Index int    `json:"index"`
}

// NodeConnections are the outgoing connections of one node by connection type, then output
// index. An output without connections may be nil.
type NodeConnections map[string][][]Connection

// Connections maps a source node name to its outgoing connections and remembers the order of the
// source nodes, which decides n8n's execution order. The zero value is empty and ready to use.
type Connections struct {
	order    []string
	bySource map[string]NodeConnections
}

// Sources returns the source node names in JavaScript key order of the stored object.
func (c *Connections) Sources() []string { return JSKeyOrder(c.order) }

// Get returns the outgoing connections of a node, nil when it has none.
func (c *Connections) Get(source string) NodeConnections { return c.bySource[source] }

// Main returns the "main" outputs of a node: output index → connections.
func (c *Connections) Main(source string) [][]Connection { return c.bySource[source]["main"] }

// Set replaces the outgoing connections of a node; a new source is added last.
func (c *Connections) Set(source string, nc NodeConnections) {
	if c.bySource == nil {
		c.bySource = map[string]NodeConnections{}
	}
	if _, ok := c.bySource[source]; !ok {
		c.order = append(c.order, source)
	}
	c.bySource[source] = nc
}

// Delete removes the outgoing connections of a node.
func (c *Connections) Delete(source string) {
	if _, ok := c.bySource[source]; !ok {
		return
	}
	delete(c.bySource, source)
	for i, s := range c.order {
		if s == source {
			c.order = append(c.order[:i:i], c.order[i+1:]...)
			break
		}
	}
}

// Len is the number of source nodes.
func (c *Connections) Len() int { return len(c.order) }

// MarshalJSON writes the sources in their stored order.
func (c Connections) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, src := range c.order {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(src)
		buf.Write(k)
		buf.WriteByte(':')
		v, err := json.Marshal(c.bySource[src])
		if err != nil {
			return nil, err
		}
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads the n8n connections object and keeps the order of its source keys.
func (c *Connections) UnmarshalJSON(b []byte) error {
	*c = Connections{}
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return nil
	}
	members, err := decodeObject(b)
	if err != nil {
		return err
	}
	for _, m := range members {
		var nc NodeConnections
		if err := json.Unmarshal(m.Value, &nc); err != nil {
			return fmt.Errorf("connections of %q: %w", m.Key, err)
		}
		if nc == nil {
			nc = NodeConnections{}
		}
		c.Set(m.Key, nc)
	}
	return nil
}

// ByDestination returns, per destination node, its incoming connections by type and input index,
// each pointing back at the source node and its output index (n8n's
// connectionsByDestinationNode). Inputs are built in source order, as n8n does.
func (c *Connections) ByDestination() map[string]NodeConnections {
	out := map[string]NodeConnections{}
	for _, src := range c.Sources() {
		nc := c.bySource[src]
		for _, typ := range sortedKeys(nc) {
			for outIdx, conns := range nc[typ] {
				for _, conn := range conns {
					dest := out[conn.Node]
					if dest == nil {
						dest = NodeConnections{}
						out[conn.Node] = dest
					}
					if conn.Index < 0 {
						continue
					}
					for len(dest[conn.Type]) <= conn.Index {
						dest[conn.Type] = append(dest[conn.Type], []Connection{})
					}
					dest[conn.Type][conn.Index] = append(dest[conn.Type][conn.Index],
						Connection{Node: src, Type: typ, Index: outIdx})
				}
			}
		}
	}
	return out
}
