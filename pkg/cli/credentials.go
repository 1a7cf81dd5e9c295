package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/store"
)

// credentialFile is a credential as n8n's export:credentials writes it: data is the encrypted
// string, or with --decrypted the data object. import:credentials encrypts an object and keeps a
// string, which must then be encrypted with this instance's key.
type credentialFile struct {
	ID          json.RawMessage `json:"id"`
	Name        string          `json:"name"`
	Type        string          `json:"type"`
	Data        json.RawMessage `json:"data"`
	NodesAccess json.RawMessage `json:"nodesAccess,omitempty"`
	CreatedAt   *time.Time      `json:"createdAt,omitempty"`
	UpdatedAt   *time.Time      `json:"updatedAt,omitempty"`
}

func importCredentials(ctx context.Context, env *Env, args []string) error {
	items, err := importedItems(flags("import:credentials", env.Stderr), args, "credentials")
	if err != nil {
		return err
	}
	cipher, err := env.cipher(ctx)
	if err != nil {
		return err
	}
	cs := make([]store.Credential, len(items))
	for i, it := range items {
		var f credentialFile
		if err := json.Unmarshal(it.raw, &f); err != nil {
			return usagef("%s: not an n8n credential: %v", it.where(), err)
		}
		id, err := stringID(f.ID)
		if err != nil {
			return usagef("%s: %v", it.where(), err)
		}
		name := strings.TrimSpace(f.Name)
		switch {
		case name == "":
			return usagef("%s: the credential has no name", it.where())
		case strings.TrimSpace(f.Type) == "":
			return usagef("%s, credential %q: it has no type", it.where(), name)
		}
		data, err := encryptedData(cipher, f.Data)
		if err != nil {
			return usagef("%s, credential %q: %v", it.where(), name, err)
		}
		if _, known := credential.Lookup(f.Type); !known {
			fmt.Fprintf(env.Stderr, "%s, credential %q: type %q is not one this instance knows; it is imported, but nodes cannot use it\n", it.where(), name, f.Type)
		}
		c := store.Credential{ID: id, Name: name, Type: f.Type, Data: data, NodesAccess: nonNull(f.NodesAccess)}
		if f.CreatedAt != nil {
			c.CreatedAt = f.CreatedAt.UTC()
		}
		cs[i] = c
	}
	in, err := env.open(ctx)
	if err != nil {
		return err
	}
	owner, err := env.owner(ctx)
	if err != nil {
		return err
	}
	if err := in.Store.ImportCredentials(ctx, cs, owner.ID); err != nil {
		var ie *store.ImportError
		if errors.As(err, &ie) {
			return fmt.Errorf("%s: %w; nothing was imported", items[ie.Index].where(), ie.Err)
		}
		return fmt.Errorf("%w; nothing was imported", err)
	}
	fmt.Fprintf(env.Stderr, "Successfully imported %d %s.\n", len(cs), plural(len(cs), "credential", "credentials"))
	return nil
}

// encryptedData is the stored form of a file's data: an object is encrypted; a string must be
// data this instance's key decrypts (n8n encrypts differently, so its encrypted exports do not
// import: export them with --decrypted).
func encryptedData(cipher *credential.Cipher, raw json.RawMessage) (string, error) {
	t := strings.TrimSpace(string(raw))
	switch {
	case t == "" || t == "null":
		return cipher.Encrypt(map[string]any{})
	case strings.HasPrefix(t, "{"):
		var data map[string]any
		if err := json.Unmarshal(raw, &data); err != nil {
			return "", fmt.Errorf("data: %v", err)
		}
		return cipher.Encrypt(data)
	case strings.HasPrefix(t, `"`):
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", fmt.Errorf("data: %v", err)
		}
		if _, err := cipher.Decrypt(s); err != nil {
			return "", errors.New("data is encrypted with another key (or by n8n, whose encryption differs); export it with --decrypted and import that file")
		}
		return s, nil
	}
	return "", fmt.Errorf("data must be an object, or a string encrypted with this instance's key, not %.20s", t)
}

func exportCredentials(ctx context.Context, env *Env, args []string) error {
	fs := flags("export:credentials", env.Stderr)
	sel, backup := exportSelection(fs, "credential")
	decrypted := fs.Bool("decrypted", false, "write the data in clear instead of encrypted (keep such files secret)")
	if err := parseExport(fs, args, sel, backup); err != nil {
		return err
	}
	in, err := env.open(ctx)
	if err != nil {
		return err
	}
	owner, err := env.owner(ctx)
	if err != nil {
		return err
	}
	var cs []store.Credential
	if *sel.all {
		if cs, err = in.Store.ListCredentials(ctx, owner, store.CredentialFilter{}); err != nil {
			return err
		}
	} else {
		c, err := in.Store.GetCredential(ctx, *sel.id)
		if err != nil {
			return err
		}
		cs = append(cs, *c)
	}
	if len(cs) == 0 {
		return errors.New("no credentials found")
	}
	cipher, err := env.cipher(ctx)
	if err != nil {
		return err
	}
	names := make([]string, len(cs))
	files := make([]any, len(cs))
	for i, c := range cs {
		idJSON, _ := json.Marshal(c.ID)
		data, _ := json.Marshal(c.Data)
		if *decrypted {
			plain, err := cipher.Decrypt(c.Data)
			if err != nil {
				return fmt.Errorf("credential %s (%q): %w", c.ID, c.Name, err)
			}
			data, _ = json.Marshal(plain)
		}
		created, updated := c.CreatedAt.UTC(), c.UpdatedAt.UTC()
		names[i] = c.ID
		files[i] = credentialFile{ID: idJSON, Name: c.Name, Type: c.Type, Data: data,
			NodesAccess: rawOr(c.NodesAccess, "[]"), CreatedAt: &created, UpdatedAt: &updated}
	}
	return env.writeItems(*sel.output, *sel.separate, *sel.pretty, names, files)
}
