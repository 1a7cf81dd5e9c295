package config

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// keyFile is the file in the data directory that keeps a generated encryption key.
const keyFile = "config"

// EnsureEncryptionKey fills EncryptionKey when it was not given: from DataDir/config when that
// file exists, else a new random key written there (mode 0600). It creates DataDir if needed.
func (c *Config) EnsureEncryptionKey() error {
	if c.EncryptionKey != "" {
		return nil
	}
	if err := os.MkdirAll(c.DataDir, 0o700); err != nil {
		return fmt.Errorf("create data folder %s: %w", c.DataDir, err)
	}
	path := filepath.Join(c.DataDir, keyFile)
	var stored struct {
		EncryptionKey string `json:"encryptionKey"`
	}
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(b, &stored); err != nil || stored.EncryptionKey == "" {
			return fmt.Errorf("%s holds no readable encryptionKey; fix or remove it", path)
		}
		c.EncryptionKey = stored.EncryptionKey
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("read %s: %w", path, err)
	}
	raw := make([]byte, 24)
	if _, err := rand.Read(raw); err != nil {
		return err
	}
	stored.EncryptionKey = hex.EncodeToString(raw)
	b, _ = json.MarshalIndent(stored, "", "  ")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	c.EncryptionKey = stored.EncryptionKey
	return nil
}
