package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/versioncheck"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// The security audit of POST /api/v1/audit, in n8n's report format: an object of reports by
// title ("Credentials Risk Report", …), each {risk, sections}, each section {title, description,
// recommendation, location} where location lists the flagged credentials or nodes. A report with
// nothing to flag is left out; the instance report always carries the security settings.

// auditCategories are the report categories a request may ask for, in report order.
var auditCategories = []string{"credentials", "database", "nodes", "filesystem", "instance"}

// defaultDaysAbandoned is how many days without an execution make a workflow abandoned, unless
// the request says otherwise.
const defaultDaysAbandoned = 90

const webhookNodeType = "n8n-nodes-base.webhook"

var (
	// sqlNodeTypes are node types whose "Execute Query" operation runs a query text.
	sqlNodeTypes = []string{"n8n-nodes-base.postgres", "n8n-nodes-base.crateDb", "n8n-nodes-base.questDb",
		"n8n-nodes-base.timescaleDb", "n8n-nodes-base.mySql", "n8n-nodes-base.microsoftSql", "n8n-nodes-base.snowflake"}
	// fileNodeTypes read or write files on the host.
	fileNodeTypes = []string{"n8n-nodes-base.readPdf", "n8n-nodes-base.readBinaryFile", "n8n-nodes-base.readBinaryFiles",
		"n8n-nodes-base.spreadsheetFile", "n8n-nodes-base.writeBinaryFile", "n8n-nodes-base.readWriteFile",
		"n8n-nodes-base.localFileTrigger"}
	// riskyNodeTypes run code or commands, or reach other hosts.
	riskyNodeTypes = []string{"n8n-nodes-base.executeCommand", "n8n-nodes-base.code", "n8n-nodes-base.function",
		"n8n-nodes-base.functionItem", "n8n-nodes-base.httpRequest", "n8n-nodes-base.ssh", "n8n-nodes-base.ftp"}
	// webhookValidatorTypes are nodes that, right after a webhook, are taken to check its payload.
	webhookValidatorTypes = []string{"n8n-nodes-base.if", "n8n-nodes-base.switch", "n8n-nodes-base.code",
		"n8n-nodes-base.function", "n8n-nodes-base.functionItem"}
)

type auditRequest struct {
	AdditionalOptions struct {
		DaysAbandonedWorkflow *int     `json:"daysAbandonedWorkflow"`
		Categories            []string `json:"categories"`
	} `json:"additionalOptions"`
}

type auditReport struct {
	Risk     string         `json:"risk"`
	Sections []auditSection `json:"sections"`
}

type auditSection struct {
	Title          string          `json:"title"`
	Description    string          `json:"description"`
	Recommendation string          `json:"recommendation"`
	Location       []auditLocation `json:"location,omitempty"`
	Settings       map[string]any  `json:"settings,omitempty"`
	// NextVersions are the newer releases (section "Outdated instance" only).
	NextVersions []versioncheck.Version `json:"nextVersions,omitempty"`
}

// auditLocation is a flagged credential (kind credential) or node (kind node).
type auditLocation struct {
	Kind         string `json:"kind"`
	ID           string `json:"id,omitempty"`
	Name         string `json:"name,omitempty"`
	WorkflowID   string `json:"workflowId,omitempty"`
	WorkflowName string `json:"workflowName,omitempty"`
	NodeID       string `json:"nodeId,omitempty"`
	NodeName     string `json:"nodeName,omitempty"`
	NodeType     string `json:"nodeType,omitempty"`
}

// auditedWorkflow is a stored workflow with its parsed document.
type auditedWorkflow struct {
	row *store.Workflow
	doc *workflow.Workflow
}

// apiGenerateAudit answers the security audit of the instance (instance owner only).
func (s *server) apiGenerateAudit(c fiber.Ctx) error {
	if err := apiOwnerOnly(c); err != nil {
		return err
	}
	var req auditRequest
	if len(c.Body()) > 0 {
		if err := decodeBody(c, &req); err != nil {
			return err
		}
	}
	categories := req.AdditionalOptions.Categories
	if len(categories) == 0 {
		categories = auditCategories
	}
	days := defaultDaysAbandoned
	if d := req.AdditionalOptions.DaysAbandonedWorkflow; d != nil {
		if *d < 1 {
			return badRequest("additionalOptions.daysAbandonedWorkflow must be at least 1")
		}
		days = *d
	}
	workflows, err := s.auditWorkflows(c.Context(), apiUser(c))
	if err != nil {
		return err
	}
	out := map[string]auditReport{}
	for _, category := range auditCategories {
		if !slices.Contains(categories, category) {
			continue
		}
		var sections []auditSection
		switch category {
		case "credentials":
			sections, err = s.credentialsRisk(c.Context(), apiUser(c), workflows, days)
		case "database":
			sections = databaseRisk(workflows)
		case "nodes":
			sections = nodeTypeSection(workflows, riskyNodeTypes, "Official risky nodes",
				"These nodes are part of Flowmill's official nodes and may be used to fetch and run any arbitrary code in the host system. This may lead to exploits such as remote code execution.",
				"Consider reviewing the parameters in these nodes, replacing them with less risky nodes, or turning off the ones you do not need with FLOWMILL_NODES_EXCLUDE.")
		case "filesystem":
			sections = nodeTypeSection(workflows, fileNodeTypes, "Nodes that interact with the filesystem",
				"These nodes read from and write to files in the host filesystem (the folder FLOWMILL_FILES_DIR names). Sensitive file content may be manipulated through a node operation.",
				"Consider protecting any sensitive files in that folder, or refactoring the workflow so that it does not require host filesystem interaction.")
		case "instance":
			sections = s.instanceRisk(c.Context(), workflows)
		}
		if err != nil {
			return err
		}
		if len(sections) > 0 {
			title := strings.ToUpper(category[:1]) + category[1:] + " Risk Report"
			out[title] = auditReport{Risk: category, Sections: sections}
		}
	}
	return c.JSON(out)
}

// auditWorkflows reads every workflow u may see (the owner: all) with its document, a page at a
// time. A document that does not parse is left out: nothing in it can run.
func (s *server) auditWorkflows(ctx context.Context, u *store.User) ([]auditedWorkflow, error) {
	const pageSize = 250
	var out []auditedWorkflow
	for offset := 0; ; offset += pageSize {
		page, more, err := s.in.Store.ListWorkflowPage(ctx, u, store.WorkflowFilter{}, offset, pageSize)
		if err != nil {
			return nil, err
		}
		for i := range page {
			b, err := page[i].EditorDocument()
			if err != nil {
				return nil, err
			}
			if doc, err := workflow.Parse(b); err == nil {
				out = append(out, auditedWorkflow{row: &page[i], doc: doc})
			}
		}
		if !more {
			return out, nil
		}
	}
}

func nodeLocation(w auditedWorkflow, n *workflow.Node) auditLocation {
	return auditLocation{Kind: "node", WorkflowID: w.row.ID, WorkflowName: w.row.Name,
		NodeID: n.ID, NodeName: n.Name, NodeType: n.Type}
}

// nodeTypeSection flags the nodes of the given types, in one section when there are any.
func nodeTypeSection(workflows []auditedWorkflow, types []string, title, description, recommendation string) []auditSection {
	var found []auditLocation
	for _, w := range workflows {
		for i := range w.doc.Nodes {
			if n := &w.doc.Nodes[i]; slices.Contains(types, n.Type) {
				found = append(found, nodeLocation(w, n))
			}
		}
	}
	if len(found) == 0 {
		return nil
	}
	return []auditSection{{Title: title, Description: description, Recommendation: recommendation, Location: found}}
}

// databaseRisk flags SQL nodes that build the query text of "Execute Query" with an expression.
func databaseRisk(workflows []auditedWorkflow) []auditSection {
	var found []auditLocation
	for _, w := range workflows {
		for i := range w.doc.Nodes {
			n := &w.doc.Nodes[i]
			if !slices.Contains(sqlNodeTypes, n.Type) || n.Parameters["operation"] != "executeQuery" {
				continue
			}
			if q, _ := n.Parameters["query"].(string); strings.HasPrefix(q, "=") && strings.Contains(q, "{{") {
				found = append(found, nodeLocation(w, n))
			}
		}
	}
	if len(found) == 0 {
		return nil
	}
	return []auditSection{{
		Title:          `Expressions in "Execute Query" fields in SQL nodes`,
		Description:    `These SQL nodes have an expression in the "Query" field of an "Execute Query" operation. Building a SQL query with an expression may lead to a SQL injection attack.`,
		Recommendation: `Consider using the "Query Parameters" field to pass parameters to the query, or validating the input of the expression in the "Query" field.`,
		Location:       found,
	}}
}

// credentialsUsedBy are the ids of the credentials w's nodes use.
func credentialsUsedBy(w auditedWorkflow) []string {
	var ids []string
	for _, n := range w.doc.Nodes {
		for _, ref := range n.Credentials {
			if m, ok := ref.(map[string]any); ok {
				if id, ok := m["id"].(string); ok && id != "" {
					ids = append(ids, id)
				}
			}
		}
	}
	return ids
}

// credentialsRisk flags credentials no workflow uses, none of the active ones uses, and none used
// by a workflow executed in the last days days.
func (s *server) credentialsRisk(ctx context.Context, u *store.User, workflows []auditedWorkflow, days int) ([]auditSection, error) {
	creds, err := s.in.Store.ListCredentials(ctx, u, store.CredentialFilter{})
	if err != nil {
		return nil, err
	}
	cutoff := time.Now().AddDate(0, 0, -days)
	used, usedActive, usedRecently := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, w := range workflows {
		ids := credentialsUsedBy(w)
		if len(ids) == 0 {
			continue
		}
		recent, err := s.executedSince(ctx, w.row.ID, cutoff)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			used[id] = true
			usedActive[id] = usedActive[id] || w.row.Active
			usedRecently[id] = usedRecently[id] || recent
		}
	}
	flag := func(in map[string]bool) []auditLocation {
		var out []auditLocation
		for _, c := range creds {
			if !in[c.ID] {
				out = append(out, auditLocation{Kind: "credential", ID: c.ID, Name: c.Name})
			}
		}
		return out
	}
	var sections []auditSection
	add := func(loc []auditLocation, title, description, recommendation string) {
		if len(loc) > 0 {
			sections = append(sections, auditSection{Title: title, Description: description, Recommendation: recommendation, Location: loc})
		}
	}
	add(flag(used), "Credentials not used in any workflow",
		"These credentials are not used in any workflow. Keeping unused credentials in your instance is an unneeded security risk.",
		"Consider deleting these credentials if you no longer need them.")
	add(flag(usedActive), "Credentials not used in any active workflow",
		"These credentials are not used by active workflows. Keeping unused credentials in your instance is an unneeded security risk.",
		"Consider deleting these credentials if you no longer need them.")
	add(flag(usedRecently), "Credentials not used in recently executed workflows",
		fmt.Sprintf("These credentials are not used in any workflow executed in the last %d days. Keeping unused credentials in your instance is an unneeded security risk.", days),
		"Consider deleting these credentials if you no longer need them.")
	return sections, nil
}

// executedSince reports whether workflow id has an execution created after t.
func (s *server) executedSince(ctx context.Context, id string, t time.Time) (bool, error) {
	last, err := s.in.Store.ListExecutions(ctx, store.ExecutionFilter{WorkflowID: id}, 1)
	if err != nil {
		return false, err
	}
	return len(last) > 0 && last[0].CreatedAt.After(t), nil
}

// instanceRisk flags webhooks of active workflows that anyone may call and an outdated instance
// (when version notifications are on and the endpoint answers), and lists the security settings
// of the instance.
func (s *server) instanceRisk(ctx context.Context, workflows []auditedWorkflow) []auditSection {
	var open []auditLocation
	for _, w := range workflows {
		if !w.row.Active {
			continue
		}
		for i := range w.doc.Nodes {
			n := &w.doc.Nodes[i]
			if n.Type != webhookNodeType || n.Disabled {
				continue
			}
			if a, _ := n.Parameters["authentication"].(string); a != "" && a != "none" {
				continue
			}
			if !hasValidatorChild(w.doc, n.Name) {
				open = append(open, nodeLocation(w, n))
			}
		}
	}
	var sections []auditSection
	if len(open) > 0 {
		sections = append(sections, auditSection{
			Title:          "Unprotected webhooks in instance",
			Description:    `These webhook nodes have the "Authentication" field set to "None" and are not directly connected to a node to validate the payload. Every unprotected webhook allows your workflow to be called by any third party who knows the webhook URL.`,
			Recommendation: `Consider setting the "Authentication" field to an option other than "None", or validating the payload with one of the following nodes: ` + strings.Join(webhookValidatorTypes, ", ") + ".",
			Location:       open,
		})
	}
	if outdated := s.outdatedInstance(ctx); outdated != nil {
		sections = append(sections, *outdated)
	}
	return append(sections, auditSection{
		Title:          "Security settings",
		Description:    "This instance has the following security settings.",
		Recommendation: "Consider adjusting the security settings of this instance to your needs; README lists every setting.",
		Settings:       s.securitySettings(),
	})
}

// hasValidatorChild reports whether a node right after the webhook named name checks its payload.
func hasValidatorChild(doc *workflow.Workflow, name string) bool {
	for _, out := range doc.Connections.Main(name) {
		for _, conn := range out {
			for _, n := range doc.Nodes {
				if n.Name == conn.Node && slices.Contains(webhookValidatorTypes, n.Type) {
					return true
				}
			}
		}
	}
	return false
}

// securitySettings are the settings of the instance that bear on its security.
func (s *server) securitySettings() map[string]any {
	none := func(v string) string {
		if v == "" {
			return "none"
		}
		return v
	}
	cfg := s.cfg
	return map[string]any{
		"features": map[string]any{
			"publicApiEnabled":            !cfg.PublicAPIDisabled,
			"userManagementEnabled":       !cfg.UserManagementDisabled,
			"templatesEnabled":            cfg.TemplatesEnabled,
			"metricsEnabled":              cfg.MetricsEnabled,
			"webhookSandboxEnabled":       cfg.WebhookSandbox,
			"httpIdempotencyEnabled":      cfg.HTTPIdempotency,
			"versionNotificationsEnabled": cfg.VersionNotificationsEnabled,
		},
		"nodes": map[string]any{
			"nodesExclude": none(cfg.NodesExclude),
			"nodesEnable":  none(cfg.NodesEnable),
			"filesDir":     none(cfg.FilesDir),
		},
		"network": map[string]any{
			"egressAllow":    none(cfg.EgressAllow),
			"egressDeny":     none(cfg.EgressDeny),
			"trustedProxies": none(cfg.TrustedProxies),
		},
		"executions": map[string]any{
			"scriptTimeout":     cfg.ScriptTimeout,
			"scriptMemoryLimit": cfg.ScriptMemoryLimit,
			"executionsTimeout": cfg.ExecutionsTimeout,
		},
		"sourceControl": map[string]any{"connected": false},
	}
}
