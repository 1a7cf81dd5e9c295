package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// WorkflowNameMaxLength is the longest workflow name, in characters.
const WorkflowNameMaxLength = 128

// ErrInvalid is returned when a value breaks a rule the schema declares, such as a name longer
// than its column. SQLite does not enforce column lengths, so the store checks them itself and
// both databases refuse the same values.
var ErrInvalid = errors.New("invalid value")

// WorkflowFilter narrows ListWorkflows; zero fields match everything.
type WorkflowFilter struct {
	// Name matches workflows whose name contains it, ignoring case (ASCII letters only on SQLite).
	Name string
	// Active, when set, matches workflows with that active flag.
	Active *bool
	// TagIDs matches workflows that carry every one of these tags.
	TagIDs []string
}

// CreateWorkflow stores w as a new workflow owned by ownerID, with the tags whose ids w.Tags
// holds, all in one transaction. It fills in w.ID, w.VersionID, the timestamps and w.Tags (whole
// tags, sorted by name). Nodes and Connections default to [] and {}. A name that is taken is
// ErrConflict, a name of 0 or more than WorkflowNameMaxLength characters ErrInvalid, and a tag id
// that does not exist an *UnknownTagError.
func (s *Store) CreateWorkflow(ctx context.Context, w *Workflow, ownerID string) error {
	if err := checkName("workflow", w.Name, WorkflowNameMaxLength); err != nil {
		return err
	}
	defaultDocument(w)
	tagIDs := tagIDsOf(w.Tags)
	now := time.Now().UTC().Truncate(time.Microsecond)
	row := *w
	row.ID, row.VersionID, row.CreatedAt, row.UpdatedAt = NewID(), NewUUID(), now, now
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		tags, err := s.findTags(tx, tagIDs)
		if err != nil {
			return err
		}
		if err := tx.Omit(clause.Associations).Create(&row).Error; err != nil {
			return workflowWriteError(err, row.Name)
		}
		share := SharedWorkflow{WorkflowID: row.ID, UserID: ownerID, Role: WorkflowRoleOwner, CreatedAt: now}
		if err := tx.Create(&share).Error; err != nil {
			return fmt.Errorf("share workflow %s with its owner %s: %w", row.ID, ownerID, err)
		}
		if err := linkTags(tx, row.ID, tagIDs); err != nil {
			return err
		}
		row.Tags = tags
		return nil
	})
	if err != nil {
		return err
	}
	*w = row
	return nil
}

// GetWorkflow returns workflow id with its tags (sorted by name), whoever owns it: for internal
// callers such as the execution service. ErrNotFound when it does not exist.
func (s *Store) GetWorkflow(ctx context.Context, id string) (*Workflow, error) {
	return s.getWorkflow(s.DB.WithContext(ctx), id)
}

// GetWorkflowFor returns workflow id as GetWorkflow does, but only when u may see it (see
// ListWorkflows); otherwise ErrNotFound, so callers do not reveal that it exists.
func (s *Store) GetWorkflowFor(ctx context.Context, u *User, id string) (*Workflow, error) {
	return s.getWorkflow(visibleTo(s.DB.WithContext(ctx), u), id)
}

func (s *Store) getWorkflow(q *gorm.DB, id string) (*Workflow, error) {
	var w Workflow
	if err := q.Preload("Tags", byTagName).Where("id = ?", id).Take(&w).Error; err != nil {
		return nil, notFound(err, "workflow "+id)
	}
	return &w, nil
}

// ListWorkflows returns the workflows u may see that match f, most recently updated first, with
// their tags (sorted by name) but without nodes, connections, settings, static data and pin data.
// The instance owner sees every workflow; any other user sees the workflows shared with them
// (any role in shared_workflows).
func (s *Store) ListWorkflows(ctx context.Context, u *User, f WorkflowFilter) ([]Workflow, error) {
	q := filterWorkflows(visibleTo(s.DB.WithContext(ctx), u), f).
		Select("id", "name", "active", "version_id", "created_at", "updated_at").
		Preload("Tags", byTagName)
	out := []Workflow{}
	if err := q.Order("updated_at DESC").Order("id").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list workflows: %w", err)
	}
	return out, nil
}

// ListWorkflowPage returns up to limit whole workflows (documents and tags) that u may see and
// f matches, skipping the first offset in ListWorkflows' order, and whether more follow. It takes
// the same few statements whatever the page size: the page, then the tags of all its workflows.
func (s *Store) ListWorkflowPage(ctx context.Context, u *User, f WorkflowFilter, offset, limit int) ([]Workflow, bool, error) {
	out := []Workflow{}
	err := filterWorkflows(visibleTo(s.DB.WithContext(ctx), u), f).Preload("Tags", byTagName).
		Order("updated_at DESC").Order("id").Offset(max(offset, 0)).Limit(max(limit, 0) + 1).Find(&out).Error
	if err != nil {
		return nil, false, fmt.Errorf("list a page of workflows: %w", err)
	}
	if len(out) > limit {
		return out[:limit], true, nil
	}
	return out, false, nil
}

// filterWorkflows narrows q to the workflows f matches.
func filterWorkflows(q *gorm.DB, f WorkflowFilter) *gorm.DB {
	if f.Name != "" {
		q = q.Where(`LOWER(name) LIKE ? ESCAPE '\'`, "%"+escapeLike(strings.ToLower(f.Name))+"%")
	}
	if f.Active != nil {
		q = q.Where("active = ?", *f.Active)
	}
	if ids := uniqueIDs(f.TagIDs); len(ids) > 0 {
		q = q.Where("id IN (SELECT workflow_id FROM workflow_tags WHERE tag_id IN ? "+
			"GROUP BY workflow_id HAVING COUNT(*) = ?)", ids, len(ids))
	}
	return q
}

// UpdateWorkflow changes workflow id, which u must be able to see, in one transaction: it loads
// the workflow with its tags, locks the row, lets change modify it, and saves every field with a
// new VersionID and UpdatedAt. change may set any field but ID and CreatedAt; w.Tags is matched by
// tag id and replaces the workflow's tags. When change returns an error nothing is written and
// that error is returned, so change can validate the merged document against what is stored. The
// errors are those of CreateWorkflow, plus ErrNotFound for a workflow u cannot see.
func (s *Store) UpdateWorkflow(ctx context.Context, u *User, id string, change func(w *Workflow) error) (*Workflow, error) {
	var saved Workflow
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		q := visibleTo(tx, u)
		if s.Dialect == Postgres {
			// SQLite transactions already hold the database's write lock from their start.
			q = q.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		var w Workflow
		if err := q.Where("id = ?", id).Take(&w).Error; err != nil {
			return notFound(err, "workflow "+id)
		}
		if err := tx.Model(&w).Association("Tags").Find(&w.Tags); err != nil {
			return fmt.Errorf("read tags of workflow %s: %w", id, err)
		}
		slices.SortFunc(w.Tags, func(a, b Tag) int { return strings.Compare(a.Name, b.Name) })
		loaded := slices.Clone(w.Tags)
		if err := change(&w); err != nil {
			return err
		}
		if err := checkName("workflow", w.Name, WorkflowNameMaxLength); err != nil {
			return err
		}
		defaultDocument(&w)
		w.ID = id
		w.VersionID = NewUUID()
		w.UpdatedAt = time.Now().UTC().Truncate(time.Microsecond)
		if err := s.replaceTags(tx, &w, loaded); err != nil {
			return err
		}
		err := tx.Model(&Workflow{}).Where("id = ?", id).Updates(map[string]any{
			"name": w.Name, "active": w.Active, "nodes": w.Nodes, "connections": w.Connections,
			"settings": w.Settings, "static_data": w.StaticData, "pin_data": w.PinData,
			"version_id": w.VersionID, "updated_at": w.UpdatedAt,
		}).Error
		if err != nil {
			return workflowWriteError(err, w.Name)
		}
		if err := s.syncWebhooks(tx, &w); err != nil {
			return err
		}
		saved = w
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &saved, nil
}

// replaceTags makes w's stored tags those whose ids w.Tags holds, when they differ from the
// loaded ones (sorted by name), and leaves w.Tags as whole tags sorted by name.
func (s *Store) replaceTags(tx *gorm.DB, w *Workflow, loaded []Tag) error {
	after := tagIDsOf(w.Tags)
	if slices.Equal(sortedCopy(tagIDsOf(loaded)), sortedCopy(after)) {
		w.Tags = loaded
		return nil
	}
	tags, err := s.findTags(tx, after)
	if err != nil {
		return err
	}
	if err := tx.Where("workflow_id = ?", w.ID).Delete(&workflowTag{}).Error; err != nil {
		return fmt.Errorf("unlink tags of workflow %s: %w", w.ID, err)
	}
	if err := linkTags(tx, w.ID, after); err != nil {
		return err
	}
	w.Tags = tags
	return nil
}

// DeleteWorkflow deletes workflow id, which u must be able to see, with its tag links, sharing
// and webhooks (the schema cascades). ErrNotFound when u cannot see it or it does not exist.
func (s *Store) DeleteWorkflow(ctx context.Context, u *User, id string) error {
	res := visibleTo(s.DB.WithContext(ctx), u).Where("id = ?", id).Delete(&Workflow{})
	if res.Error != nil {
		return fmt.Errorf("delete workflow %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("workflow %s: %w", id, ErrNotFound)
	}
	return nil
}

// ShareWorkflow gives userID a role on workflowID. ErrConflict when the user already holds one;
// ErrNotFound when the workflow or the user does not exist.
func (s *Store) ShareWorkflow(ctx context.Context, workflowID, userID, role string) error {
	share := SharedWorkflow{WorkflowID: workflowID, UserID: userID, Role: role, CreatedAt: time.Now().UTC()}
	err := s.DB.WithContext(ctx).Create(&share).Error
	if errors.Is(err, gorm.ErrForeignKeyViolated) {
		return fmt.Errorf("share workflow %s with user %s: %w", workflowID, userID, ErrNotFound)
	}
	return notFound(err, fmt.Sprintf("share workflow %s with user %s", workflowID, userID))
}

// UniqueWorkflowName returns base when no workflow has that name, else base followed by the
// next free number ("My workflow 2", "My workflow 3", …), one above the highest in use. base is
// shortened when needed so the result fits WorkflowNameMaxLength. The answer is advice: the
// unique index decides when a workflow is saved.
func (s *Store) UniqueWorkflowName(ctx context.Context, base string) (string, error) {
	return uniqueName(base, WorkflowNameMaxLength, func(base string) ([]string, error) {
		return namesLike(s.DB.WithContext(ctx).Model(&Workflow{}), base)
	}, func(base string, names []string) int {
		highest := 1
		for _, n := range names {
			suffix, ok := strings.CutPrefix(n, base+" ")
			if !ok || suffix == "" || strings.Trim(suffix, "0123456789") != "" {
				continue // "My workflow copy" and the like do not count
			}
			if v, err := strconv.Atoi(suffix); err == nil && v > highest {
				highest = v
			}
		}
		return highest + 1
	})
}

// namesLike returns the names q holds that are base or start with base and a space.
func namesLike(q *gorm.DB, base string) ([]string, error) {
	var names []string
	err := q.Where("name = ? OR SUBSTR(name, 1, ?) = ?", base, utf8.RuneCountInString(base)+1, base+" ").Pluck("name", &names).Error
	if err != nil {
		return nil, fmt.Errorf("find names like %q: %w", base, err)
	}
	return names, nil
}

// uniqueName returns base when names(base) does not hold it, else base and the number
// number(base, names) picks. When that is longer than maxLength characters, base is shortened and
// looked up again, as the shorter base may be taken too.
func uniqueName(base string, maxLength int, names func(string) ([]string, error), number func(string, []string) int) (string, error) {
	for {
		taken, err := names(base)
		if err != nil {
			return "", err
		}
		if !slices.Contains(taken, base) {
			return base, nil
		}
		name := base + " " + strconv.Itoa(number(base, taken))
		over := utf8.RuneCountInString(name) - maxLength
		if over <= 0 {
			return name, nil
		}
		runes := []rune(base)
		if over >= len(runes) {
			return "", fmt.Errorf("no free name fits %d characters", maxLength)
		}
		base = strings.TrimSpace(string(runes[:len(runes)-over]))
	}
}

// visibleTo limits a workflows query to those u may see: all for the instance owner, else those
// shared with u.
func visibleTo(q *gorm.DB, u *User) *gorm.DB {
	if u.GlobalRole == RoleOwner {
		return q
	}
	return q.Where("workflows.id IN (SELECT workflow_id FROM shared_workflows WHERE user_id = ?)", u.ID)
}

func defaultDocument(w *Workflow) {
	if len(w.Nodes) == 0 {
		w.Nodes = JSON("[]")
	}
	if len(w.Connections) == 0 {
		w.Connections = JSON("{}")
	}
}

func workflowWriteError(err error, name string) error {
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return fmt.Errorf("workflow name %q is taken: %w", name, ErrConflict)
	}
	return fmt.Errorf("save workflow %q: %w", name, err)
}

// checkName enforces the 1 to max characters every name column declares.
func checkName(kind, name string, max int) error {
	if n := utf8.RuneCountInString(name); n == 0 || n > max {
		return fmt.Errorf("%s name %q has %d characters, want 1 to %d: %w", kind, name, n, max, ErrInvalid)
	}
	return nil
}

// escapeLike makes s match literally inside a LIKE pattern with ESCAPE '\'.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

func byTagName(db *gorm.DB) *gorm.DB { return db.Order("tags.name") }

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}
