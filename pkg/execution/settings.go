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
func (sv saving) keep(mode, status string) bool {
	if status == "waiting" {
		return true
	}
	if mode == "manual" && !sv.manual {
		return false
	}
	if status == "success" {
		return sv.onSuccess
	}
	return sv.onError
}

// timeout is the execution's time limit: the workflow's executionTimeout setting, else the
// instance default, capped by the instance maximum; 0 means none.
func timeout(s workflow.Settings, cfg *config.Config) time.Duration {
	secs := s.ExecutionTimeout()
	if secs <= 0 {
		secs = float64(cfg.ExecutionsTimeout)
	}
	if secs <= 0 {
		return 0
	}
	secs = min(secs, float64(cfg.ExecutionsTimeoutMax))
	return time.Duration(secs * float64(time.Second))
}
