package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// waitWorkflow is <trigger> → Wait (its parameters given) → Set (after: true).
func waitingWorkflow(name, trigger, waitParams string) string {
	return fmt.Sprintf(`{"name":%q,"nodes":[%s,
	 {"name":"Wait","type":"n8n-nodes-base.wait","typeVersion":1,"position":[200,0],"webhookId":"%s-wait","parameters":%s},
	 {"name":"After","type":"n8n-nodes-base.set","typeVersion":1,"position":[400,0],"parameters":{"values":{"boolean":[{"name":"after","value":true}]}}}],
	 "connections":{"%s":{"main":[[{"node":"Wait","type":"main","index":0}]]},"Wait":{"main":[[{"node":"After","type":"main","index":0}]]}}}`,
		name, trigger, name, waitParams, strings.SplitN(strings.SplitN(trigger, `"name":"`, 2)[1], `"`, 2)[0])
}

// TestTriggerWorkflowsWithWaitNodesActivate activates trigger workflows with a Wait node in
// each resume mode (its resume webhook is not a production webhook and is not resolved at
// activation, where the options it reads may be absent), then runs the time-interval and the
// webhook waits to their end.
func TestTriggerWorkflowsWithWaitNodesActivate(t *testing.T) {
	e := startWithWorker(t, nil)
	hook := func(path string) string {
		return fmt.Sprintf(`{"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"webhookId":"hook-%s","parameters":{"path":%q,"responseMode":"lastNode"}}`, path, path)
	}
	interval := `{"name":"Interval","type":"n8n-nodes-base.interval","typeVersion":1,"position":[0,0],"parameters":{"interval":1,"unit":"hours"}}`
	for _, c := range []struct{ name, trigger, wait string }{
		{"interval", hook("interval"), `{"resume":"timeInterval","amount":1,"unit":"seconds"}`},
		{"specific", interval, `{"resume":"specificTime","dateTime":"2030-01-01T00:00:00Z"}`},
		{"hook", hook("hookwait"), `{"resume":"webhook"}`},
		{"hook-options", interval, `{"resume":"webhook","options":{"webhookSuffix":"go"}}`},
	} {
		id := e.saveWorkflow(t, waitingWorkflow(c.name, c.trigger, c.wait))
		code, b := e.setActive(t, id, true)
		require.Equal(t, 200, code, "%s: %s", c.name, b)
	}

	res, body := call(t, "GET", e.base+"webhook/interval", "", nil)
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "true", jsonField(t, body, "after"), body)

	res, body = call(t, "GET", e.base+"webhook/hookwait", "", nil)
	require.Equal(t, 200, res.StatusCode, body)
	execID := e.waitingExecutionID(t)
	res, body = call(t, "GET", e.base+"webhook-waiting/"+execID, "", nil)
	require.Equal(t, 200, res.StatusCode, body)
}
