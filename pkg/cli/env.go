package cli

import (
	"context"
	"io"
	"log/slog"
	"os"

	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/store"
)

// Env is what a command runs with: its output streams and, opened on first use, the instance's
// infrastructure from the usual settings.
type Env struct {
	Stdout, Stderr io.Writer
	process        string
	in             *infra.Infra
}

// open opens the database (migrating it), Redis and the rest once, from the environment. Only
// warnings are logged, to stderr: stdout may be the export.
func (e *Env) open(ctx context.Context) (*infra.Infra, error) {
	if e.in != nil {
		return e.in, nil
	}
	cfg, err := config.Load(nil, os.Getenv)
	if err != nil {
		return nil, err
	}
	log := slog.New(slog.NewTextHandler(e.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})).With("process", e.process)
	if e.in, err = infra.Open(ctx, cfg, log); err != nil {
		return nil, err
	}
	return e.in, nil
}

// owner is the instance owner (the default owner before setup), who owns what is imported and
// sees every workflow and credential.
func (e *Env) owner(ctx context.Context) (*store.User, error) {
	in, err := e.open(ctx)
	if err != nil {
		return nil, err
	}
	return in.Store.EnsureDefaultOwner(ctx)
}

// cipher encrypts and decrypts credential data with the instance's key.
func (e *Env) cipher(ctx context.Context) (*credential.Cipher, error) {
	in, err := e.open(ctx)
	if err != nil {
		return nil, err
	}
	return credential.NewCipher(in.Config.EncryptionKey)
}

func (e *Env) close() {
	if e.in != nil {
		e.in.Close()
	}
}
