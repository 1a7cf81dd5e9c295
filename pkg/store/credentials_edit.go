package store

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"gorm.io/gorm"
)

// UpdateCredential changes credential id in one transaction, its row locked (on Postgres) so
// concurrent changes apply one after the other: change gets the stored credential and edits its
// Name, Data and NodesAccess (other fields are kept). The instance owner may change any
// credential; any other user only those they own (role owner), and gets ErrNotFound for the
// rest. An error from change is returned as it is and nothing is written; a name of 0 or more
// than CredentialNameMaxLength characters is ErrInvalid.
func (s *Store) UpdateCredential(ctx context.Context, u *User, id string, change func(*Credential) error) (*Credential, error) {
	var c Credential
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.lockOwnedCredential(tx, u, id, &c); err != nil {
			return err
		}
		if err := change(&c); err != nil {
			return err
		}
		if err := checkName("credential", c.Name, CredentialNameMaxLength); err != nil {
			return err
		}
		if len(c.NodesAccess) == 0 {
			c.NodesAccess = JSON("[]")
		}
		c.UpdatedAt = time.Now().UTC().Truncate(time.Microsecond)
		res := tx.Model(&Credential{}).Where("id = ?", id).
			Updates(map[string]any{"name": c.Name, "data": c.Data, "nodes_access": c.NodesAccess, "updated_at": c.UpdatedAt})
		if res.Error != nil {
			return fmt.Errorf("update credential %s: %w", id, res.Error)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// CredentialRole returns the role userID holds on credential credentialID in shared_credentials;
// ErrNotFound when none.
func (s *Store) CredentialRole(ctx context.Context, credentialID, userID string) (string, error) {
	var share SharedCredential
	err := s.DB.WithContext(ctx).Where("credential_id = ? AND user_id = ?", credentialID, userID).Take(&share).Error
	if err != nil {
		return "", notFound(err, "role on credential "+credentialID)
	}
	return share.Role, nil
}

// UniqueCredentialName returns base when none of the credentials u may see is called so, else
// "base 2", "base 3"… the first such name none of them carries. A name longer than maxLength
// characters with its number has its base shortened.
func (s *Store) UniqueCredentialName(ctx context.Context, u *User, base string, maxLength int) (string, error) {
	return uniqueName(base, maxLength, func(base string) ([]string, error) {
		return namesLike(credentialsVisibleTo(s.DB.WithContext(ctx).Model(&Credential{}), u, ""), base)
	}, func(base string, names []string) int {
		n := 2
		for slices.Contains(names, base+" "+strconv.Itoa(n)) {
			n++
		}
		return n
	})
}
