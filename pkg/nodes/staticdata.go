package nodes

import "github.com/flowmill/flowmill/pkg/workflow"

// GlobalStaticData returns the workflow's global static data (getWorkflowStaticData("global")
// in scripts), saved with the workflow when the run changes it.
func (ex *Execution) GlobalStaticData() map[string]any {
	if !ex.globalAccessed {
		ex.globalAccessed = true
		// Copied only when asked for, so nodes that never use it cost nothing.
		ex.globalBefore, _ = workflow.DeepCopy(ex.cfg.GlobalStaticData).(map[string]any)
	}
	if ex.cfg.GlobalStaticData == nil {
		ex.cfg.GlobalStaticData = map[string]any{}
	}
	return ex.cfg.GlobalStaticData
}

// GlobalStaticDataChanged returns the global static data and whether the node changed it.
func (ex *Execution) GlobalStaticDataChanged() (map[string]any, bool) {
	if !ex.globalAccessed {
		return ex.cfg.GlobalStaticData, false
	}
	now := ex.cfg.GlobalStaticData
	if ex.globalBefore == nil && len(now) == 0 {
		return now, false
	}
	return now, !workflow.DeepEqual(now, ex.globalBefore)
}
