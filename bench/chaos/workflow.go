package main

import (
	"encoding/json"

	"github.com/flowmill/flowmill/pkg/queue/queuetest"
	"github.com/flowmill/flowmill/pkg/store/storetest"
)

// postgresURL and redisURL are the servers the run uses (FLOWMILL_TEST_DATABASE_URL and
// FLOWMILL_TEST_REDIS_URL, else the local ones), as bin/stack does.
func postgresURL() string { return storetest.PostgresURL() }
func redisURL() string    { return queuetest.URL() }

// workflowJSON is the chaos workflow: Webhook (POST /webhook/chaos, answer with the last node's
// first item) → HTTP Request POST to the sink with the request's id and the execution's id.
func workflowJSON(sinkURL string) string {
	wf := map[string]any{
		"name": "chaos",
		"nodes": []any{
			map[string]any{"name": "Webhook", "type": "n8n-nodes-base.webhook", "typeVersion": 1, "position": []int{0, 0},
				"webhookId": "chaos", "parameters": map[string]any{"path": "chaos", "httpMethod": "POST", "responseMode": "lastNode"}},
			map[string]any{"name": "Side effect", "type": "n8n-nodes-base.httpRequest", "typeVersion": 1, "position": []int{250, 0},
				"parameters": map[string]any{"requestMethod": "POST", "url": sinkURL, "responseFormat": "json",
					"options": map[string]any{"timeout": 10000},
					"bodyParametersUi": map[string]any{"parameter": []any{
						map[string]any{"name": "requestId", "value": "={{ $json.body.id }}"},
						map[string]any{"name": "executionId", "value": "={{ $execution.id }}"},
					}}}},
		},
		"connections": map[string]any{"Webhook": map[string]any{"main": [][]map[string]any{{{"node": "Side effect", "type": "main", "index": 0}}}}},
	}
	b, _ := json.Marshal(wf)
	return string(b)
}
