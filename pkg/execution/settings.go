package execution

import (
	"time"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// Saving is the instance's default of what finished executions keep (FLOWMILL_EXECUTIONS_DATA_SAVE_*);
// a workflow's settings override it.
type Saving struct {
	// OnSuccess and OnError are "all" or "none"; empty means "all".
	OnSuccess, OnError string
	// Manual keeps manual runs. Default false.
	Manual bool
}

// saving is what a finished execution keeps, from the workflow's settings over the instance's.
type saving struct {
	onSuccess bool
	onError   bool
	manual    bool
}

// of is what an execution of a workflow with settings s keeps.
func (inst Saving) of(s workflow.Settings) saving {
	pick := func(key, instance string) string {
		if v, ok := s[key].(string); ok && v != "" && v != "DEFAULT" {
			return v
		}
		return instance
	}
	manual := inst.Manual
	switch v := s["saveManualExecutions"].(type) {
	case bool:
		manual = v
	case string:
		if v == "true" || v == "false" {
			manual = v == "true"
		}
	}
	return saving{
		onSuccess: pick("saveDataSuccessExecution", inst.OnSuccess) != "none",
		onError:   pick("saveDataErrorExecution", inst.OnError) != "none",
		manual:    manual,
	}
}

// keep reports whether an execution of mode that ended with status is kept.
func (sv saving) keep(mode workflow.Mode, status workflow.Status) bool {
	if status == workflow.StatusWaiting {
		return true
	}
	if mode == workflow.ModeManual && !sv.manual {
		return false
	}
	if status == workflow.StatusSuccess {
		return sv.onSuccess
	}
	return sv.onError
}

// Timeouts are the instance's execution time limits (FLOWMILL_EXECUTIONS_TIMEOUT and _MAX).
type Timeouts struct {
	// Default applies to workflows that set none; 0 or less is none.
	Default time.Duration
	// Max caps what a workflow may set; 0 or less is no cap.
	Max time.Duration
}

// of is the time limit of an execution of a workflow with settings s.
func (t Timeouts) of(s workflow.Settings) time.Duration { return s.Timeout(t.Default, t.Max) }
