package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"
)

// ErrAlreadySetUp is returned when the instance owner or an invited account has already been
// set up.
var ErrAlreadySetUp = fmt.Errorf("already set up: %w", ErrConflict)

// AccountFields are the profile fields of a finished account.
type AccountFields struct {
	Email, FirstName, LastName string
}

// GetUserByEmail returns the user with that (lower-case) e-mail address, or ErrNotFound.
func (s *Store) GetUserByEmail(ctx context.Context, email string) (*User, error) {
	var u User
	if err := s.DB.WithContext(ctx).Where("email = ?", email).Take(&u).Error; err != nil {
		return nil, notFound(err, "user with that e-mail")
	}
	return &u, nil
}

// ListUsers returns every user, oldest first.
func (s *Store) ListUsers(ctx context.Context) ([]User, error) {
	out := []User{}
	if err := s.DB.WithContext(ctx).Order("created_at").Order("id").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	return out, nil
}

// SetUpOwner turns the password-less default owner id into the instance owner, in one
// transaction: it fills in the account, records that setup is done, and gives the owner every
// workflow and credential that has no owner yet. ErrAlreadySetUp once an owner exists (also when
// two setups race); ErrConflict when the e-mail belongs to another user.
func (s *Store) SetUpOwner(ctx context.Context, id string, f AccountFields, passwordHash string) (*User, error) {
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now := time.Now().UTC()
		// The row lock taken here makes a racing setup wait, then find the password set.
		res := tx.Model(&User{}).Where("id = ? AND global_role = ? AND password IS NULL", id, RoleOwner).Updates(map[string]any{
			"email": f.Email, "first_name": f.FirstName, "last_name": f.LastName, "password": passwordHash,
			"password_changed_at": now, "updated_at": now,
		})
		if res.Error != nil {
			return notFound(res.Error, "owner e-mail "+f.Email)
		}
		if res.RowsAffected == 0 {
			return ErrAlreadySetUp
		}
		if err := setSetting(tx, SettingOwnerSetUp, "true"); err != nil {
			return err
		}
		for _, q := range []string{
			`INSERT INTO shared_workflows (workflow_id, user_id, role, created_at)
			 SELECT id, ?, 'owner', ? FROM workflows WHERE id NOT IN (SELECT workflow_id FROM shared_workflows)`,
			`INSERT INTO shared_credentials (credential_id, user_id, role, created_at)
			 SELECT id, ?, 'owner', ? FROM credentials WHERE id NOT IN (SELECT credential_id FROM shared_credentials)`,
		} {
			if err := tx.Exec(q, id, now).Error; err != nil {
				return fmt.Errorf("migrate data to the owner: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.GetUser(ctx, id)
}

// Invitee is one address of an invitation and what became of it.
type Invitee struct {
	Email string
	// User is the pending member for the address (new or invited before); nil when the address
	// belongs to a finished account.
	User *User
}

// InviteMembers creates a pending member for each address that has no user yet, in one
// transaction, and returns every address with its pending user. Addresses must be lower-case
// and unique.
func (s *Store) InviteMembers(ctx context.Context, emails []string) ([]Invitee, error) {
	out := make([]Invitee, len(emails))
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var existing []User
		if err := tx.Where("email IN ?", emails).Find(&existing).Error; err != nil {
			return err
		}
		now := time.Now().UTC()
		for i, email := range emails {
			out[i].Email = email
			if j := slices.IndexFunc(existing, func(u User) bool { return u.Email != nil && *u.Email == email }); j >= 0 {
				if existing[j].IsPending() {
					out[i].User = &existing[j]
				}
				continue
			}
			u := &User{ID: NewUUID(), Email: &email, GlobalRole: RoleMember, CreatedAt: now, UpdatedAt: now}
			if err := tx.Create(u).Error; err != nil {
				return notFound(err, "invite "+email)
			}
			out[i].User = u
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("invite members: %w", err)
	}
	return out, nil
}

// CompleteSignUp finishes invited user id's account. ErrAlreadySetUp when it is finished
// already, ErrNotFound when there is no such user.
func (s *Store) CompleteSignUp(ctx context.Context, id, firstName, lastName, passwordHash string) (*User, error) {
	now := time.Now().UTC()
	res := s.DB.WithContext(ctx).Model(&User{}).Where("id = ? AND password IS NULL", id).Updates(map[string]any{
		"first_name": firstName, "last_name": lastName, "password": passwordHash, "password_changed_at": now, "updated_at": now,
	})
	if res.Error != nil {
		return nil, fmt.Errorf("sign up %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		if _, err := s.GetUser(ctx, id); err != nil {
			return nil, err
		}
		return nil, ErrAlreadySetUp
	}
	return s.GetUser(ctx, id)
}

// UpdateProfile changes a user's names and e-mail. ErrConflict when the e-mail belongs to
// another user.
func (s *Store) UpdateProfile(ctx context.Context, id string, f AccountFields) (*User, error) {
	res := s.DB.WithContext(ctx).Model(&User{}).Where("id = ?", id).Updates(map[string]any{
		"email": f.Email, "first_name": f.FirstName, "last_name": f.LastName, "updated_at": time.Now().UTC(),
	})
	if res.Error != nil {
		return nil, notFound(res.Error, "e-mail "+f.Email)
	}
	if res.RowsAffected == 0 {
		return nil, fmt.Errorf("user %s: %w", id, ErrNotFound)
	}
	return s.GetUser(ctx, id)
}

// SetPassword stores a new password hash for user id and voids the user's unused password-reset
// tokens.
func (s *Store) SetPassword(ctx context.Context, id, passwordHash string) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now := time.Now().UTC()
		res := tx.Model(&User{}).Where("id = ?", id).Updates(map[string]any{
			"password": passwordHash, "password_changed_at": now, "updated_at": now,
		})
		if res.Error != nil {
			return fmt.Errorf("set password of %s: %w", id, res.Error)
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("user %s: %w", id, ErrNotFound)
		}
		return tx.Model(&AuthToken{}).Where("user_id = ? AND used_at IS NULL", id).Update("used_at", now).Error
	})
}

// SaveSurvey stores a user's personalization answers.
func (s *Store) SaveSurvey(ctx context.Context, id string, answers JSON) error {
	res := s.DB.WithContext(ctx).Model(&User{}).Where("id = ?", id).
		Updates(map[string]any{"personalization_answers": answers, "updated_at": time.Now().UTC()})
	if res.Error != nil {
		return fmt.Errorf("save survey of %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("user %s: %w", id, ErrNotFound)
	}
	return nil
}

// DeleteUser deletes user id in one transaction. With transferTo, the user's workflows and
// credentials pass to that user (who keeps the role they already had on any of them); without,
// the workflows and credentials the user owns are deleted. ErrNotFound when either user does
// not exist.
func (s *Store) DeleteUser(ctx context.Context, id, transferTo string) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		ids := []string{id}
		if transferTo != "" {
			ids = append(ids, transferTo)
		}
		var n int64
		if err := tx.Model(&User{}).Where("id IN ?", ids).Count(&n).Error; err != nil {
			return err
		}
		if int(n) != len(ids) {
			return fmt.Errorf("user to delete or to transfer to: %w", ErrNotFound)
		}
		var stmts []string
		var args [][]any
		if transferTo != "" {
			stmts = []string{
				`DELETE FROM shared_workflows WHERE user_id = ? AND workflow_id IN (SELECT workflow_id FROM shared_workflows WHERE user_id = ?)`,
				`UPDATE shared_workflows SET user_id = ? WHERE user_id = ?`,
				`DELETE FROM shared_credentials WHERE user_id = ? AND credential_id IN (SELECT credential_id FROM shared_credentials WHERE user_id = ?)`,
				`UPDATE shared_credentials SET user_id = ? WHERE user_id = ?`,
				// Waiting and retried runs of the workflows passed on act for their new owner.
				`UPDATE executions SET user_id = ? WHERE user_id = ?`,
			}
			args = [][]any{{id, transferTo}, {transferTo, id}, {id, transferTo}, {transferTo, id}, {transferTo, id}}
		} else {
			stmts = []string{
				`DELETE FROM workflows WHERE id IN (SELECT workflow_id FROM shared_workflows WHERE user_id = ? AND role = 'owner')`,
				`DELETE FROM credentials WHERE id IN (SELECT credential_id FROM shared_credentials WHERE user_id = ? AND role = 'owner')`,
			}
			args = [][]any{{id}, {id}}
		}
		for i, q := range stmts {
			if err := tx.Exec(q, args[i]...).Error; err != nil {
				return fmt.Errorf("delete user %s: %w", id, err)
			}
		}
		if err := tx.Where("id = ?", id).Delete(&User{}).Error; err != nil {
			return fmt.Errorf("delete user %s: %w", id, err)
		}
		return nil
	})
}

// setSetting is SetSetting inside a transaction.
func setSetting(tx *gorm.DB, key, value string) error {
	err := tx.Exec(`INSERT INTO settings (key, value, load_on_startup) VALUES (?, ?, true)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value).Error
	if err != nil {
		return fmt.Errorf("set %s: %w", key, err)
	}
	return nil
}
