package credential

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrDecrypt means stored credential data could not be decrypted: it was written with another
// encryption key, or it was changed. The error never carries the data.
var ErrDecrypt = errors.New("credential data cannot be decrypted with this instance's encryption key")

// sealedPrefix marks the format of encrypted data, so a later format can be told apart.
const sealedPrefix = "v1:"

// keyInfo separates the credential key from anything else derived from the same secret (the
// session signing key uses the configured key too).
const keyInfo = "flowmill credential data v1"

// Cipher encrypts credential data at rest with AES-256-GCM. It is safe for concurrent use.
type Cipher struct {
	aead cipher.AEAD
}

// NewCipher derives a 256-bit key from the configured encryption key with HKDF-SHA256. The
// key must not be empty.
func NewCipher(encryptionKey string) (*Cipher, error) {
	if encryptionKey == "" {
		return nil, errors.New("credential cipher: the encryption key is empty")
	}
	key, err := hkdf.Key(sha256.New, []byte(encryptionKey), nil, keyInfo, 32)
	if err != nil {
		return nil, fmt.Errorf("credential cipher: derive key: %w", err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("credential cipher: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("credential cipher: %w", err)
	}
	return &Cipher{aead: aead}, nil
}

// Encrypt returns data as JSON sealed with a random nonce: "v1:" + base64(nonce ‖ ciphertext).
func (c *Cipher) Encrypt(data map[string]any) (string, error) {
	if data == nil {
		data = map[string]any{}
	}
	plain, err := json.Marshal(data)
	if err != nil {
		return "", fmt.Errorf("encode credential data: %w", err)
	}
	nonce := make([]byte, c.aead.NonceSize(), c.aead.NonceSize()+len(plain)+c.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	sealed := c.aead.Seal(nonce, nonce, plain, nil)
	return sealedPrefix + base64.StdEncoding.EncodeToString(sealed), nil
}

// Decrypt opens what Encrypt returned. Any failure is ErrDecrypt.
func (c *Cipher) Decrypt(stored string) (map[string]any, error) {
	raw, ok := strings.CutPrefix(stored, sealedPrefix)
	if !ok {
		return nil, ErrDecrypt
	}
	sealed, err := base64.StdEncoding.DecodeString(raw)
	if err != nil || len(sealed) < c.aead.NonceSize() {
		return nil, ErrDecrypt
	}
	n := c.aead.NonceSize()
	plain, err := c.aead.Open(nil, sealed[:n], sealed[n:], nil)
	if err != nil {
		return nil, ErrDecrypt
	}
	var data map[string]any
	if err := json.Unmarshal(plain, &data); err != nil {
		return nil, ErrDecrypt
	}
	return data, nil
}
