package store

import (
	"time"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// Setting is one instance-wide key/value pair.
type Setting struct {
	Key           string `gorm:"primaryKey"`
	Value         string
	LoadOnStartup bool
}

// User roles.
const (
	RoleOwner  = "owner"
	RoleMember = "member"
)

// User is an account. Before owner setup a password-less owner with no e-mail exists: the
// default user.
type User struct {
	ID                     string `gorm:"primaryKey"`
	Email                  *string
	FirstName              *string
	LastName               *string
	Password               *string
	GlobalRole             string
	PersonalizationAnswers JSON
	Settings               JSON
	PasswordChangedAt      *time.Time
	Disabled               bool
	CreatedAt              time.Time
	UpdatedAt              time.Time
}

// IsPending reports whether the user has not finished sign-up (or, for the owner, setup).
func (u *User) IsPending() bool { return u.Password == nil }

// Workflow is a stored workflow document.
type Workflow struct {
	ID          string `gorm:"primaryKey"`
	Name        string
	Active      bool
	Nodes       JSON
	Connections JSON
	Settings    JSON
	StaticData  JSON
	PinData     JSON
	VersionID   string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	Tags        []Tag `gorm:"many2many:workflow_tags"`
	// Webhooks, when not nil, replace the workflow's registered webhooks as UpdateWorkflow saves
	// it active; an inactive workflow keeps none.
	Webhooks []Webhook `gorm:"-"`
}

// Workflow sharing roles: the role a user holds on one workflow in shared_workflows.
const (
	// WorkflowRoleOwner is held by the user who created the workflow.
	WorkflowRoleOwner = "owner"
)

// SharedWorkflow gives one user a role on one workflow. Members see only the workflows they hold
// a row for; the instance owner sees every workflow.
type SharedWorkflow struct {
	WorkflowID string `gorm:"primaryKey"`
	UserID     string `gorm:"primaryKey"`
	Role       string
	CreatedAt  time.Time
}

// Tag labels workflows.
type Tag struct {
	ID        string `gorm:"primaryKey"`
	Name      string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Execution is one run of a workflow; its bulky data lives in ExecutionData.
type Execution struct {
	ID             int64 `gorm:"primaryKey;autoIncrement"`
	WorkflowID     *string
	WorkflowName   string
	Status         workflow.Status
	Mode           workflow.Mode
	Finished       bool
	RetryOf        *int64
	RetrySuccessID *int64
	SessionID      string
	// UserID is the user the run acts for: the owner of the saved workflow, or whoever started a
	// manual run of an unsaved one. Its credentials and the workflows it may run as sub-workflows
	// are that user's; empty means none.
	UserID string
	// LeaseOwner is the claim token of the run holding the execution (random per claim, so two
	// runs in one process never share it); empty when nobody holds it.
	LeaseOwner     string
	LeaseExpiresAt *time.Time
	// Takeovers counts the claims that found the execution running under an expired lease: a
	// worker died while running it.
	Takeovers int
	// RunningNode is the node the run was last known to be in, for the message of a run that
	// keeps killing its worker.
	RunningNode string
	CreatedAt   time.Time
	StartedAt   *time.Time
	StoppedAt   *time.Time
	WaitTill    *time.Time
}

// ExecutionData holds the workflow snapshot, how the run was asked to start, and the run data
// with the resumable state (empty until the first checkpoint).
type ExecutionData struct {
	ExecutionID  int64 `gorm:"primaryKey"`
	WorkflowData JSON
	StartData    JSON
	Data         JSON
}

// TableName keeps the singular table name of the schema.
func (ExecutionData) TableName() string { return "execution_data" }
