// Package crypto is the Crypto node (version 1): it hashes, HMACs or signs a value (or an item's
// binary data for hash and HMAC), or generates a random string, and writes the result to a field.
package crypto

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Define(descriptionJSON, nodes.KindAction, execute)
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	action, err := ex.ParamString("action", 0)
	if err != nil {
		return nil, err
	}
	items := ex.InputData(0)
	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		newItem, err := run(ex, action, item, i)
		if err != nil {
			if !ex.ContinueOnFail() {
				return nil, err
			}
			out = append(out, workflow.Item{
				JSON:       workflow.ObjectOf("error", err.Error()),
				PairedItem: &workflow.PairedItems{{Item: i}},
			})
			continue
		}
		out = append(out, newItem)
	}
	return [][]workflow.Item{out}, nil
}

func run(ex *nodes.Execution, action string, item workflow.Item, i int) (workflow.Item, error) {
	property, err := ex.ParamString("dataPropertyName", i)
	if err != nil {
		return workflow.Item{}, err
	}
	value, err := ex.ParamString("value", i)
	if err != nil {
		return workflow.Item{}, err
	}
	var result any
	binaryProcessed := false
	switch action {
	case "generate":
		result, err = generate(ex, i)
	case "hash", "hmac":
		result, binaryProcessed, err = digest(ex, action, item, value, i)
	case "sign":
		result, err = signValue(ex, value, i)
	}
	if err != nil {
		return workflow.Item{}, err
	}
	newItem := workflow.Item{JSON: item.JSON.Clone(), PairedItem: &workflow.PairedItems{{Item: i}}}
	if newItem.JSON == nil {
		newItem.JSON = workflow.NewObject(1)
	}
	if item.Binary != nil && !binaryProcessed {
		newItem.Binary = item.Binary
	}
	// n8n sets the field with a path of one element: a dot is part of the key, not a level.
	newItem.JSON.Set(property, result)
	return newItem, nil
}

func generate(ex *nodes.Execution, i int) (any, error) {
	encodingType, err := ex.ParamString("encodingType", i)
	if err != nil {
		return nil, err
	}
	if encodingType == "uuid" {
		return uuid.NewString(), nil
	}
	length, err := ex.ParamFloat("stringLength", i)
	if err != nil {
		return nil, err
	}
	n := int(length)
	if n < 0 || n > 1<<20 {
		return nil, nodes.Errorf(i, "The length must be between 0 and %d", 1<<20)
	}
	buf := make([]byte, n)
	_, _ = rand.Read(buf)
	var s string
	switch encodingType {
	case "base64":
		s = strings.NewReplacer("+", "", "/", "", "=", "").Replace(base64.StdEncoding.EncodeToString(buf))
	case "hex":
		s = hex.EncodeToString(buf)
	case "ascii":
		// Node's "ascii" decoding clears the high bit of every byte.
		for j := range buf {
			buf[j] &= 0x7f
		}
		s = string(buf)
	default:
		return nil, nodes.Errorf(i, "Unknown encoding: %s", encodingType)
	}
	if len(s) > n {
		s = s[:n]
	}
	return s, nil
}

func digest(ex *nodes.Execution, action string, item workflow.Item, value string, i int) (string, bool, error) {
	typ, err := ex.ParamString("type", i)
	if err != nil {
		return "", false, err
	}
	encoding, err := ex.ParamString("encoding", i)
	if err != nil {
		return "", false, err
	}
	newHash, _ := hashFunc(typ)
	if newHash == nil {
		return "", false, nodes.Errorf(i, "Digest method not supported")
	}
	var h hash.Hash
	if action == "hash" {
		h = newHash()
	} else {
		secret, err := ex.ParamString("secret", i)
		if err != nil {
			return "", false, err
		}
		h = hmac.New(newHash, []byte(secret))
	}
	useBinary, err := ex.ParamBool("binaryData", i)
	if err != nil {
		return "", false, err
	}
	if useBinary {
		name, err := ex.ParamString("binaryPropertyName", i)
		if err != nil {
			return "", false, err
		}
		data, err := binaryInput(item, name, i)
		if err != nil {
			return "", false, err
		}
		h.Write(data)
	} else {
		h.Write([]byte(value))
	}
	s, err := encode(h.Sum(nil), encoding, i)
	return s, useBinary, err
}

// binaryInput reads a binary property as n8n's assertBinaryData does.
func binaryInput(item workflow.Item, name string, i int) ([]byte, error) {
	if item.Binary == nil {
		return nil, nodes.Errorf(i, "No binary data exists on item!")
	}
	bin, ok := item.Binary[name]
	if !ok {
		return nil, &nodes.Error{
			Message:     "The item has no binary field '" + name + "' [item " + strconv.Itoa(i) + "]",
			Description: "Check that the parameter where you specified the input binary field name is correct, and that it matches a field in the binary input",
			ItemIndex:   i,
		}
	}
	data, err := nodes.BinaryBytes(bin)
	if err != nil {
		return nil, nodes.Errorf(i, "%v", err)
	}
	return data, nil
}

func encode(sum []byte, encoding string, i int) (string, error) {
	switch encoding {
	case "hex":
		return hex.EncodeToString(sum), nil
	case "base64":
		return base64.StdEncoding.EncodeToString(sum), nil
	}
	return "", nodes.Errorf(i, "Unknown encoding: %s", encoding)
}

// hashFunc maps OpenSSL digest names (case-insensitive, with or without an RSA- prefix or a
// WithRSAEncryption suffix) to Go hashes.
func hashFunc(name string) (func() hash.Hash, crypto.Hash) {
	n := strings.ToLower(name)
	n = strings.TrimPrefix(n, "rsa-")
	n = strings.TrimSuffix(n, "withrsaencryption")
	switch n {
	case "md5":
		return md5.New, crypto.MD5
	case "sha1":
		return sha1.New, crypto.SHA1
	case "sha224":
		return sha256.New224, crypto.SHA224
	case "sha256":
		return sha256.New, crypto.SHA256
	case "sha384":
		return sha512.New384, crypto.SHA384
	case "sha512":
		return sha512.New, crypto.SHA512
	case "sha512-224", "sha512/224":
		return sha512.New512_224, crypto.SHA512_224
	case "sha512-256", "sha512/256":
		return sha512.New512_256, crypto.SHA512_256
	case "sha3-224":
		return func() hash.Hash { return sha3.New224() }, crypto.SHA3_224
	case "sha3-256":
		return func() hash.Hash { return sha3.New256() }, crypto.SHA3_256
	case "sha3-384":
		return func() hash.Hash { return sha3.New384() }, crypto.SHA3_384
	case "sha3-512":
		return func() hash.Hash { return sha3.New512() }, crypto.SHA3_512
	}
	return nil, 0
}

func signValue(ex *nodes.Execution, value string, i int) (string, error) {
	algorithm, err := ex.ParamString("algorithm", i)
	if err != nil {
		return "", err
	}
	encoding, err := ex.ParamString("encoding", i)
	if err != nil {
		return "", err
	}
	keyPEM, err := ex.ParamString("privateKey", i)
	if err != nil {
		return "", err
	}
	newHash, id := hashFunc(algorithm)
	if newHash == nil {
		return "", nodes.Errorf(i, "Invalid digest")
	}
	key, err := parsePrivateKey(keyPEM)
	if err != nil {
		return "", nodes.Errorf(i, "%v", err)
	}
	h := newHash()
	h.Write([]byte(value))
	sum := h.Sum(nil)
	var sig []byte
	switch k := key.(type) {
	case *rsa.PrivateKey:
		sig, err = signRSA(k, id, sum)
	case *ecdsa.PrivateKey:
		sig, err = ecdsa.SignASN1(rand.Reader, k, sum)
	default:
		err = errUnsupportedKey
	}
	if err != nil {
		return "", nodes.Errorf(i, "%v", err)
	}
	return encode(sig, encoding, i)
}
