package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// CredentialNameMaxLength is the longest credential name, in characters.
const CredentialNameMaxLength = 128

// CredentialRoleOwner is held in shared_credentials by the user who created the credential.
const CredentialRoleOwner = "owner"

// Credential is a stored credential. Data is the encrypted form of its data (see
// pkg/credential); the store never sees the plain data.
type Credential struct {
	ID          string `gorm:"primaryKey"`
	Name        string
	Type        string
	Data        string
	NodesAccess JSON
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// SharedCredential gives one user a role on one credential. Members see only the credentials
// they hold a row for; the instance owner sees every credential.
type SharedCredential struct {
	CredentialID string `gorm:"primaryKey"`
	UserID       string `gorm:"primaryKey"`
	Role         string
	CreatedAt    time.Time
}

// CredentialFilter narrows ListCredentials; zero fields match everything.
type CredentialFilter struct {
	// Type matches credentials of exactly this type.
	Type string
	// Name matches credentials of exactly this name.
	Name string
}

// CreateCredential stores c as a new credential owned by ownerID, with its shared_credentials
// owner row, in one transaction. It fills in c.ID and the timestamps; NodesAccess defaults to [].
// A name of 0 or more than CredentialNameMaxLength characters is ErrInvalid. Names need not be
// unique, as in n8n.
func (s *Store) CreateCredential(ctx context.Context, c *Credential, ownerID string) error {
	if err := checkName("credential", c.Name, CredentialNameMaxLength); err != nil {
		return err
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	row := *c
	row.ID, row.CreatedAt, row.UpdatedAt = NewID(), now, now
	if len(row.NodesAccess) == 0 {
		row.NodesAccess = JSON("[]")
	}
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&row).Error; err != nil {
			return fmt.Errorf("save credential %q: %w", row.Name, err)
		}
		share := SharedCredential{CredentialID: row.ID, UserID: ownerID, Role: CredentialRoleOwner, CreatedAt: now}
		if err := tx.Create(&share).Error; err != nil {
			return fmt.Errorf("share credential %s with its owner %s: %w", row.ID, ownerID, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	*c = row
	return nil
}

// GetCredential returns credential id whoever owns it, for internal callers. ErrNotFound when it
// does not exist.
func (s *Store) GetCredential(ctx context.Context, id string) (*Credential, error) {
	return getCredential(s.DB.WithContext(ctx), id)
}

// GetCredentialFor returns credential id when u may see it (see ListCredentials); otherwise
// ErrNotFound, so callers do not reveal that it exists.
func (s *Store) GetCredentialFor(ctx context.Context, u *User, id string) (*Credential, error) {
	return getCredential(credentialsVisibleTo(s.DB.WithContext(ctx), u, ""), id)
}

func getCredential(q *gorm.DB, id string) (*Credential, error) {
	var c Credential
	if err := q.Where("id = ?", id).Take(&c).Error; err != nil {
		return nil, notFound(err, "credential "+id)
	}
	return &c, nil
}

// ListCredentials returns the credentials u may see that match f, by name then id. The instance
// owner sees every credential; any other user sees those shared with them (any role).
func (s *Store) ListCredentials(ctx context.Context, u *User, f CredentialFilter) ([]Credential, error) {
	q := credentialsVisibleTo(s.DB.WithContext(ctx), u, "")
	if f.Type != "" {
		q = q.Where("type = ?", f.Type)
	}
	if f.Name != "" {
		q = q.Where("name = ?", f.Name)
	}
	out := []Credential{}
	if err := q.Order("name").Order("id").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list credentials: %w", err)
	}
	return out, nil
}

// DeleteCredential deletes credential id and returns it as it was. The instance owner may delete
// any credential; any other user only those they own (role owner in shared_credentials), and
// gets ErrNotFound for the rest.
func (s *Store) DeleteCredential(ctx context.Context, u *User, id string) (*Credential, error) {
	var c Credential
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.lockOwnedCredential(tx, u, id, &c); err != nil {
			return err
		}
		// shared_credentials rows go with it (ON DELETE CASCADE).
		if err := tx.Where("id = ?", id).Delete(&Credential{}).Error; err != nil {
			return fmt.Errorf("delete credential %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// WorkflowOwner returns the user who owns workflow id (role owner in shared_workflows):
// whose credentials its runs may use. ErrNotFound when the workflow has no owner row.
func (s *Store) WorkflowOwner(ctx context.Context, workflowID string) (*User, error) {
	var u User
	err := s.DB.WithContext(ctx).
		Where("id IN (SELECT user_id FROM shared_workflows WHERE workflow_id = ? AND role = ?)", workflowID, WorkflowRoleOwner).
		Take(&u).Error
	if err != nil {
		return nil, notFound(err, "owner of workflow "+workflowID)
	}
	return &u, nil
}

// lockOwnedCredential reads credential id into c within transaction tx, its row locked on
// Postgres, when u owns it (the instance owner: any); ErrNotFound otherwise.
func (s *Store) lockOwnedCredential(tx *gorm.DB, u *User, id string, c *Credential) error {
	q := credentialsVisibleTo(tx, u, CredentialRoleOwner)
	if s.Dialect == Postgres {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	if err := q.Where("id = ?", id).Take(c).Error; err != nil {
		return notFound(err, "credential "+id)
	}
	return nil
}

// credentialsVisibleTo limits q to the credentials u may see; with role set, to those u holds
// that role on. The instance owner sees all.
func credentialsVisibleTo(q *gorm.DB, u *User, role string) *gorm.DB {
	if u.GlobalRole == RoleOwner {
		return q
	}
	if role != "" {
		return q.Where("credentials.id IN (SELECT credential_id FROM shared_credentials WHERE user_id = ? AND role = ?)", u.ID, role)
	}
	return q.Where("credentials.id IN (SELECT credential_id FROM shared_credentials WHERE user_id = ?)", u.ID)
}
