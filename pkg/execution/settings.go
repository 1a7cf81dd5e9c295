package execution

import (
	"time"

	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// saving is what a finished execution keeps, from the workflow's settings over the instance's.
type saving struct {
	onSuccess bool
	onError   bool
	manual    bool
}

func savingFor(s workflow.Settings, cfg *config.Config) saving {
	pick := func(key, instance string) string {
		if v, ok := s[key].(string); ok && v != "" && v != "DEFAULT" {
			return v
		}
		return instance
	}
	manual := cfg.SaveManualExecutions
	switch v := s["saveManualExecutions"].(type) {
	case bool:
		manual = v
	case string:
		if v == "true" || v == "false" {
			manual = v == "true"
		}
	}
	return saving{
		onSuccess: pick("saveDataSuccessExecution", cfg.SaveDataOnSuccess) != "none",
		onError:   pick("saveDataErrorExecution", cfg.SaveDataOnError) != "none",
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

// timeout is the execution's time limit under the instance's default and maximum.
func timeout(s workflow.Settings, cfg *config.Config) time.Duration {
	return s.Timeout(time.Duration(cfg.ExecutionsTimeout)*time.Second, time.Duration(cfg.ExecutionsTimeoutMax)*time.Second)
}
