// Package redis is the Redis node (version 1): it reads and writes keys, lists, hashes and sets,
// increments counters, publishes to channels and reports the server's INFO, with the redis
// credential. Clients are shared per credential through connpool, and every connection is
// dialed through the instance's egress policy.
package redis

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"

	goredis "github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/connpool"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/redisclient"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

//go:embed redis.svg
var iconSVG []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.IconSVG = iconSVG
	return t
}

// poolSize bounds the connections one credential's client keeps open.
const poolSize = 4

// clients holds one client per credential and egress policy.
var clients = connpool.New[*goredis.Client](connpool.Options{})

type run struct {
	ex     *nodes.Execution
	client *goredis.Client
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	creds, err := ex.Credentials(ctx, "redis")
	if err != nil {
		return nil, err
	}
	s := redisclient.FromCredential(creds)
	policy := egress.PolicyOf(ex.HTTPClient())
	// The policy is part of the key: a client dials with the policy it was made with.
	key := connpool.Key(struct {
		S redisclient.Settings
		P string
	}{s, fmt.Sprintf("%p", policy)})
	client, release, err := clients.Get(key, func() (*goredis.Client, error) {
		return redisclient.New(s, policy, poolSize), nil
	})
	if err != nil {
		return nil, err
	}
	defer release()
	if err := client.Ping(ctx).Err(); err != nil {
		clients.Drop(key)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &nodes.Error{Message: redisclient.DialMessage(err, s.Address()), ItemIndex: -1, Cause: err}
	}
	r := &run{ex: ex, client: client}
	operation, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	if operation == "info" {
		text, err := client.Info(ctx).Result()
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if ex.ContinueOnFail() {
				return [][]workflow.Item{{{JSON: workflow.ObjectOf("error", err.Error())}}}, nil
			}
			return nil, &nodes.Error{Message: err.Error(), ItemIndex: -1, Cause: err}
		}
		return [][]workflow.Item{{{JSON: infoObject(text)}}}, nil
	}
	items := ex.InputData(0)
	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		res, err := r.item(ctx, operation, i, item)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if ex.ContinueOnFail() {
				out = append(out, ex.ErrorItem(err, i))
				continue
			}
			var ne *nodes.Error
			if errors.As(err, &ne) {
				return nil, ne
			}
			return nil, &nodes.Error{Message: err.Error(), ItemIndex: i, Cause: err}
		}
		out = append(out, res)
	}
	return [][]workflow.Item{out}, nil
}

func (r *run) str(name string, i int) (string, error) {
	v, err := r.ex.Param(name, i)
	if err != nil {
		return "", err
	}
	return jsv.ToString(v), nil
}

func (r *run) boolOr(name string, i int, fallback bool) (bool, error) {
	v, err := r.ex.ParamOr(name, i, fallback)
	if err != nil {
		return false, err
	}
	return workflow.Truthy(v), nil
}

func (r *run) item(ctx context.Context, operation string, i int, in workflow.Item) (workflow.Item, error) {
	ex, c := r.ex, r.client
	newItem := func(o *workflow.Object) workflow.Item {
		return workflow.Item{JSON: o, PairedItem: &workflow.PairedItems{{Item: i}}}
	}
	switch operation {
	case "delete":
		key, err := r.str("key", i)
		if err != nil {
			return workflow.Item{}, err
		}
		return in, c.Del(ctx, key).Err()
	case "get":
		name, err := r.str("propertyName", i)
		if err != nil {
			return workflow.Item{}, err
		}
		key, err := r.str("key", i)
		if err != nil {
			return workflow.Item{}, err
		}
		keyType, err := r.str("keyType", i)
		if err != nil {
			return workflow.Item{}, err
		}
		v, found, err := getValue(ctx, c, key, keyType)
		if err != nil {
			return workflow.Item{}, err
		}
		if !found {
			v = nil
		}
		o := workflow.NewObject(0)
		if err := r.place(o, name, v, i); err != nil {
			return workflow.Item{}, err
		}
		return newItem(o), nil
	case "keys":
		pattern, err := r.str("keyPattern", i)
		if err != nil {
			return workflow.Item{}, err
		}
		getValues, err := r.boolOr("getValues", i, true)
		if err != nil {
			return workflow.Item{}, err
		}
		keys, err := c.Keys(ctx, pattern).Result()
		if err != nil {
			return workflow.Item{}, err
		}
		if !getValues {
			list := make([]any, len(keys))
			for k, key := range keys {
				list[k] = key
			}
			// n8n outputs this item without a pairing.
			return workflow.Item{JSON: workflow.ObjectOf("keys", list)}, nil
		}
		o := workflow.NewObject(0)
		for _, key := range keys {
			v, found, err := getValue(ctx, c, key, "automatic")
			if err != nil {
				return workflow.Item{}, err
			}
			// n8n's value of a key of another type is undefined, which JSON leaves out.
			if found {
				o.Set(key, v)
			}
		}
		return newItem(o), nil
	case "llen":
		list, err := r.str("list", i)
		if err != nil {
			return workflow.Item{}, err
		}
		n, err := c.LLen(ctx, list).Result()
		if err != nil {
			return workflow.Item{}, err
		}
		return newItem(workflow.ObjectOf(list, float64(n))), nil
	case "set":
		return in, r.set(ctx, i)
	case "incr":
		key, err := r.str("key", i)
		if err != nil {
			return workflow.Item{}, err
		}
		expire, err := r.boolOr("expire", i, false)
		if err != nil {
			return workflow.Item{}, err
		}
		ttl, err := ex.ParamOr("ttl", i, -1.0)
		if err != nil {
			return workflow.Item{}, err
		}
		n, err := c.Incr(ctx, key).Result()
		if err != nil {
			return workflow.Item{}, err
		}
		if t := jsv.ToNumber(ttl); expire && t > 0 {
			if err := c.Do(ctx, "EXPIRE", key, jsv.FormatNumber(t)).Err(); err != nil {
				return workflow.Item{}, err
			}
		}
		return workflow.Item{JSON: workflow.ObjectOf(key, float64(n))}, nil
	case "publish":
		channel, err := r.str("channel", i)
		if err != nil {
			return workflow.Item{}, err
		}
		data, err := r.str("messageData", i)
		if err != nil {
			return workflow.Item{}, err
		}
		return in, c.Publish(ctx, channel, data).Err()
	case "push":
		list, err := r.str("list", i)
		if err != nil {
			return workflow.Item{}, err
		}
		data, err := r.str("messageData", i)
		if err != nil {
			return workflow.Item{}, err
		}
		tail, err := r.boolOr("tail", i, false)
		if err != nil {
			return workflow.Item{}, err
		}
		if tail {
			return in, c.RPush(ctx, list, data).Err()
		}
		return in, c.LPush(ctx, list, data).Err()
	case "pop":
		list, err := r.str("list", i)
		if err != nil {
			return workflow.Item{}, err
		}
		tail, err := r.boolOr("tail", i, false)
		if err != nil {
			return workflow.Item{}, err
		}
		nameV, err := ex.ParamOr("propertyName", i, "propertyName")
		if err != nil {
			return workflow.Item{}, err
		}
		pop := c.LPop
		if tail {
			pop = c.RPop
		}
		var v any
		s, err := pop(ctx, list).Result()
		switch {
		case errors.Is(err, goredis.Nil):
			v = nil
		case err != nil:
			return workflow.Item{}, err
		case s == "":
			v = ""
		default:
			// A popped value that is JSON is output parsed, as in n8n.
			if parsed, perr := workflow.DecodeJSONValue([]byte(s)); perr == nil {
				v = parsed
			} else {
				v = s
			}
		}
		o := workflow.NewObject(0)
		if err := r.place(o, jsv.ToString(nameV), v, i); err != nil {
			return workflow.Item{}, err
		}
		return newItem(o), nil
	}
	return workflow.Item{}, nodes.Errorf(i, "The operation %q is not supported!", operation)
}

// place writes v to o under name: a lodash path unless the dotNotation option is off.
func (r *run) place(o *workflow.Object, name string, v any, i int) error {
	opts, err := r.ex.ParamMap("options", i)
	if err != nil {
		return err
	}
	if dn, ok := opts["dotNotation"]; ok && dn == false {
		o.Set(name, v)
		return nil
	}
	workflow.SetPath(o, name, v)
	return nil
}

// getValue reads key as keyType, asking the server for the type when it is automatic. found is
// false where n8n gets undefined: a key of a type it does not read (a set, as TYPE names it
// "set", not "sets"; a sorted set; a stream) or a missing key.
func getValue(ctx context.Context, c *goredis.Client, key, keyType string) (any, bool, error) {
	if keyType == "" || keyType == "automatic" {
		t, err := c.Type(ctx, key).Result()
		if err != nil {
			return nil, false, err
		}
		keyType = t
	}
	switch keyType {
	case "string":
		s, err := c.Get(ctx, key).Result()
		if errors.Is(err, goredis.Nil) {
			return nil, true, nil
		}
		return s, err == nil, err
	case "hash":
		// HGETALL over RESP2 keeps the server's field order.
		pairs, err := c.Do(ctx, "HGETALL", key).StringSlice()
		if err != nil {
			return nil, false, err
		}
		o := workflow.NewObject(0)
		for k := 0; k+1 < len(pairs); k += 2 {
			o.Set(pairs[k], pairs[k+1])
		}
		return o, true, nil
	case "list":
		l, err := c.LRange(ctx, key, 0, -1).Result()
		return strings2any(l), err == nil, err
	case "sets":
		l, err := c.SMembers(ctx, key).Result()
		return strings2any(l), err == nil, err
	}
	return nil, false, nil
}

func strings2any(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

// set is the set operation: the value written as keyType, then the expiry.
func (r *run) set(ctx context.Context, i int) error {
	ex, c := r.ex, r.client
	key, err := r.str("key", i)
	if err != nil {
		return err
	}
	value, err := ex.Param("value", i)
	if err != nil {
		return err
	}
	keyType, err := r.str("keyType", i)
	if err != nil {
		return err
	}
	valueIsJSON, err := r.boolOr("valueIsJSON", i, true)
	if err != nil {
		return err
	}
	expire, err := r.boolOr("expire", i, false)
	if err != nil {
		return err
	}
	ttl, err := ex.ParamOr("ttl", i, -1.0)
	if err != nil {
		return err
	}
	if keyType == "" || keyType == "automatic" {
		switch value.(type) {
		case string:
			keyType = "string"
		case []any:
			keyType = "list"
		case *workflow.Object, map[string]any:
			keyType = "hash"
		default:
			return nodes.Errorf(i, "Could not identify the type to set. Please set it manually!")
		}
	}
	switch keyType {
	case "string":
		if value == nil {
			return nodes.Errorf(i, "Cannot read properties of %s (reading 'toString')", jsv.ToString(value))
		}
		err = c.Set(ctx, key, jsv.ToString(value), 0).Err()
	case "hash":
		err = setHash(ctx, c, key, value, valueIsJSON, i)
	case "list":
		elems, ok := indexed(value)
		if !ok {
			break
		}
		for k, e := range elems {
			if e == nil {
				return nodes.Errorf(i, "Cannot read properties of null (reading 'toString')")
			}
			if err = c.LSet(ctx, key, int64(k), jsv.ToString(e)).Err(); err != nil {
				break
			}
		}
	case "sets":
		args := []any{"SADD", key}
		if l, ok := value.([]any); ok {
			for _, e := range l {
				args = append(args, jsv.ToString(e))
			}
		} else {
			args = append(args, jsv.ToString(value))
		}
		err = c.Do(ctx, args...).Err()
	}
	if err != nil {
		return err
	}
	if expire {
		return c.Do(ctx, "EXPIRE", key, jsv.FormatNumber(jsv.ToNumber(ttl))).Err()
	}
	return nil
}

// indexed is what JavaScript's value[index] loop over value.length reads: an array's elements,
// a string's UTF-16 units.
func indexed(value any) ([]any, bool) {
	switch v := value.(type) {
	case []any:
		return v, true
	case string:
		units := utf16.Encode([]rune(v))
		out := make([]any, len(units))
		for k, u := range units {
			out[k] = string(utf16.Decode([]uint16{u}))
		}
		return out, true
	}
	return nil, false
}

// setHash writes a hash: from JSON (an object's fields, as n8n does for each key of the parsed
// value) or from space-separated field value pairs.
func setHash(ctx context.Context, c *goredis.Client, key string, value any, valueIsJSON bool, i int) error {
	args := []any{"HSET", key}
	if !valueIsJSON {
		for _, p := range strings.Split(jsv.ToString(value), " ") {
			args = append(args, p)
		}
		return c.Do(ctx, args...).Err()
	}
	values := value
	if s, ok := value.(string); ok {
		if parsed, err := workflow.DecodeJSONValue([]byte(s)); err == nil {
			values = parsed
		}
	}
	switch v := values.(type) {
	case nil:
		return nodes.Errorf(i, "Cannot convert undefined or null to object")
	case *workflow.Object:
		for k, fv := range v.All() {
			if fv == nil {
				return nodes.Errorf(i, "Cannot read properties of null (reading 'toString')")
			}
			args = append(args, k, jsv.ToString(fv))
		}
	case map[string]any:
		o := workflow.ObjectFromMap(v)
		return setHash(ctx, c, key, o, true, i)
	default:
		elems, _ := indexed(v)
		for k, e := range elems {
			if e == nil {
				return nodes.Errorf(i, "Cannot read properties of null (reading 'toString')")
			}
			args = append(args, strconv.Itoa(k), jsv.ToString(e))
		}
	}
	if len(args) == 2 {
		return nil
	}
	return c.Do(ctx, args...).Err()
}

var numberLike = regexp.MustCompile(`^[\d.]+$`)

// infoValue is n8n's reading of an INFO value: a number when it is made of digits and dots
// (parsed as parseFloat does, so "6.2.14" is 6.2), else the text.
func infoValue(s string) any {
	if !numberLike.MatchString(s) {
		return s
	}
	end, dot := 0, false
	for end < len(s) && (s[end] != '.' || !dot) {
		if s[end] == '.' {
			dot = true
		}
		end++
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(s[:end], "."), 64)
	if err != nil || math.IsNaN(f) {
		return nil
	}
	return f
}

// infoObject turns INFO's text into an object as n8n does: "name:value" lines (only the part
// up to a second colon), values with "=" into objects of their comma-separated pairs.
func infoObject(text string) *workflow.Object {
	o := workflow.NewObject(0)
	for _, line := range strings.Split(text, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		parts := strings.Split(line, ":")
		if len(parts) < 2 {
			continue
		}
		key, value := parts[0], strings.TrimSpace(parts[1])
		if !strings.Contains(value, "=") {
			o.Set(key, infoValue(value))
			continue
		}
		sub := workflow.NewObject(0)
		for _, pair := range strings.Split(value, ",") {
			kv := strings.Split(pair, "=")
			if len(kv) < 2 {
				sub.Set(kv[0], nil)
				continue
			}
			sub.Set(kv[0], infoValue(kv[1]))
		}
		o.Set(key, sub)
	}
	return o
}
