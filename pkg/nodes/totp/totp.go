// Package totp is the TOTP node (version 1): it generates the current time-based one-time
// password (RFC 6238) of the totpApi credential for each item.
package totp

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	_ "embed"
	"encoding/binary"
	"fmt"
	"hash"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Define(descriptionJSON, nodes.KindAction, execute)
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	operation, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	creds, err := ex.Credentials(ctx, "totpApi")
	if err != nil {
		return nil, err
	}
	label := jsv.ToString(jsv.Or(creds["label"], ""))
	if !strings.Contains(label, ":") {
		return nil, nodes.Errorf(-1, "Malformed label - expected `issuer:username`")
	}
	options, err := ex.ParamMap("options", 0)
	if err != nil {
		return nil, err
	}
	algorithm := jsv.ToString(jsv.Or(options["algorithm"], ""))
	if algorithm == "" {
		algorithm = "SHA1"
	}
	digits := positive(options["digits"], 6)
	period := positive(options["period"], 30)
	if digits > 10 {
		return nil, nodes.Errorf(-1, "Digits must be between 1 and 10")
	}
	newHash := hashes[strings.ToUpper(algorithm)]
	if newHash == nil {
		return nil, nodes.Errorf(-1, "Unknown hash algorithm: %s", algorithm)
	}
	key, err := decodeBase32(jsv.ToString(jsv.Or(creds["secret"], "")))
	if err != nil {
		return nil, nodes.Errorf(-1, "%v", err)
	}
	now := ex.Now()
	token := generate(key, newHash, int(digits), period, now)
	seconds := float64(now.UnixMilli()) / 1000
	remaining := int32(period * (1 - math.Mod(seconds/period, 1)))

	items := ex.InputData(0)
	out := make([]workflow.Item, 0, len(items))
	if operation == "generateSecret" {
		for i := range items {
			out = append(out, workflow.Item{
				JSON:       workflow.ObjectOf("token", token, "secondsRemaining", float64(remaining)),
				PairedItem: &workflow.PairedItems{{Item: i}},
			})
		}
	}
	return [][]workflow.Item{out}, nil
}

func positive(v any, fallback float64) float64 {
	if n, ok := workflow.Number(v); ok && n > 0 {
		return n
	}
	return fallback
}

var hashes = map[string]func() hash.Hash{
	"SHA1": sha1.New, "SHA224": sha256.New224, "SHA256": sha256.New, "SHA384": sha512.New384, "SHA512": sha512.New,
	"SHA3-224": func() hash.Hash { return sha3.New224() }, "SHA3-256": func() hash.Hash { return sha3.New256() },
	"SHA3-384": func() hash.Hash { return sha3.New384() }, "SHA3-512": func() hash.Hash { return sha3.New512() },
}

// generate computes the TOTP code for the time step holding now (RFC 4226 truncation).
func generate(key []byte, newHash func() hash.Hash, digits int, period float64, now time.Time) string {
	counter := uint64(math.Floor(float64(now.UnixMilli()) / 1000 / period))
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], counter)
	mac := hmac.New(newHash, key)
	mac.Write(msg[:])
	sum := mac.Sum(nil)
	offset := sum[len(sum)-1] & 0x0f
	code := uint64(sum[offset]&0x7f)<<24 | uint64(sum[offset+1])<<16 | uint64(sum[offset+2])<<8 | uint64(sum[offset+3])
	code %= uint64(math.Pow10(digits))
	s := strconv.FormatUint(code, 10)
	if len(s) < digits {
		s = strings.Repeat("0", digits-len(s)) + s
	}
	return s
}

const base32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

// decodeBase32 reads a secret as the otpauth library does: case-insensitive, padding optional.
func decodeBase32(s string) ([]byte, error) {
	s = strings.ToUpper(strings.TrimRight(s, "="))
	out := make([]byte, 0, len(s)*5/8)
	var bits, value uint32
	for _, r := range s {
		idx := strings.IndexRune(base32Alphabet, r)
		if idx < 0 {
			return nil, fmt.Errorf("Invalid character found: %c", r)
		}
		value = value<<5 | uint32(idx)
		bits += 5
		if bits >= 8 {
			bits -= 8
			out = append(out, byte(value>>bits))
		}
	}
	return out, nil
}
