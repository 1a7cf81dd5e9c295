package main

import (
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// access is who may call a route.
type access int

const (
	// public routes need no session (health, metrics, the settings the login page needs).
	public access = iota
	// signedIn routes need a signed-in user of any role.
	signedIn
	// ownerOnly routes need the instance owner.
	ownerOnly
	// accountOnly routes need a signed-in user with a finished account: not the default user.
	accountOnly
	// apiKey routes are the public API: an API key in X-FLOWMILL-API-KEY or X-N8N-API-KEY, while
	// it is enabled.
	apiKey
)

// route is one row of the route table.
type route struct {
	method  string
	path    string // relative to the base path
	access  access
	handler fiber.Handler
}

// routes is every HTTP route of the api, in one table. Paths are relative to the base path.
func (s *server) routes() []route {
	return append([]route{
		{http.MethodGet, "/healthz", public, s.healthz},
		{http.MethodGet, "/healthz/readiness", public, s.readiness},
		{http.MethodGet, "/metrics", public, s.metricsHandler},

		{http.MethodGet, "/rest/settings", public, s.getSettings},
		{http.MethodGet, "/rest/login", public, s.getLogin},
		{http.MethodPost, "/rest/login", public, s.postLogin},
		{http.MethodPost, "/rest/logout", public, s.postLogout},
		{http.MethodGet, "/rest/me", signedIn, s.getMe},
		{http.MethodPatch, "/rest/me", accountOnly, s.patchMe},
		{http.MethodPatch, "/rest/me/password", accountOnly, s.patchMyPassword},
		{http.MethodPost, "/rest/me/survey", signedIn, s.postSurvey},
		{http.MethodGet, "/rest/me/api-key", signedIn, s.getMyAPIKey},
		{http.MethodPost, "/rest/me/api-key", signedIn, s.postMyAPIKey},
		{http.MethodDelete, "/rest/me/api-key", signedIn, s.deleteMyAPIKey},
		{http.MethodPost, "/rest/owner", ownerOnly, s.postOwner},
		{http.MethodPost, "/rest/owner/skip-setup", ownerOnly, s.postSkipOwnerSetup},
		{http.MethodGet, "/rest/resolve-signup-token", public, s.getResolveSignupToken},
		{http.MethodGet, "/rest/users", ownerOnly, s.getUsers},
		{http.MethodPost, "/rest/users", ownerOnly, s.postUsers},
		{http.MethodPost, "/rest/users/:id", public, s.postSignUp},
		{http.MethodDelete, "/rest/users/:id", ownerOnly, s.deleteUser},
		{http.MethodPost, "/rest/users/:id/reinvite", ownerOnly, s.postReinvite},
		{http.MethodPost, "/rest/forgot-password", public, s.postForgotPassword},
		{http.MethodGet, "/rest/resolve-password-token", public, s.getResolvePasswordToken},
		{http.MethodPost, "/rest/change-password", public, s.postChangePassword},

		// The public API: key and OpenAPI checks in the apiKey guard; docs while it is enabled.
		{http.MethodGet, "/api/v1/docs", public, s.apiDocs},
		{http.MethodGet, "/api/v1/docs/*", public, s.apiDocsAsset},
		{http.MethodGet, "/api/v1/openapi.yml", public, s.apiSpecDocument},
		{http.MethodGet, "/api/v1/workflows", apiKey, s.apiGetWorkflows},
		{http.MethodPost, "/api/v1/workflows", apiKey, s.apiCreateWorkflow},
		{http.MethodGet, "/api/v1/workflows/:id", apiKey, s.apiGetWorkflow},
		{http.MethodPut, "/api/v1/workflows/:id", apiKey, s.apiUpdateWorkflow},
		{http.MethodDelete, "/api/v1/workflows/:id", apiKey, s.apiDeleteWorkflow},
		{http.MethodPost, "/api/v1/workflows/:id/activate", apiKey, s.apiActivateWorkflow},
		{http.MethodPost, "/api/v1/workflows/:id/deactivate", apiKey, s.apiDeactivateWorkflow},
		{http.MethodGet, "/api/v1/executions", apiKey, s.apiGetExecutions},
		{http.MethodGet, "/api/v1/executions/:id", apiKey, s.apiGetExecution},
		{http.MethodDelete, "/api/v1/executions/:id", apiKey, s.apiDeleteExecution},
		{http.MethodPost, "/api/v1/credentials", apiKey, s.apiCreateCredential},
		{http.MethodDelete, "/api/v1/credentials/:id", apiKey, s.apiDeleteCredential},
		{http.MethodGet, "/api/v1/credentials/schema/:credentialTypeName", apiKey, s.apiGetCredentialSchema},
		{http.MethodGet, "/api/v1/tags", apiKey, s.apiGetTags},
		{http.MethodPost, "/api/v1/tags", apiKey, s.apiCreateTag},
		{http.MethodGet, "/api/v1/tags/:id", apiKey, s.apiGetTag},
		{http.MethodPut, "/api/v1/tags/:id", apiKey, s.apiUpdateTag},
		{http.MethodDelete, "/api/v1/tags/:id", apiKey, s.apiDeleteTag},
		{http.MethodGet, "/api/v1/workflows/:id/tags", apiKey, s.apiGetWorkflowTags},
		{http.MethodPut, "/api/v1/workflows/:id/tags", apiKey, s.apiUpdateWorkflowTags},
		{http.MethodGet, "/api/v1/users", apiKey, s.apiGetUsers},
		{http.MethodGet, "/api/v1/users/:id", apiKey, s.apiGetUser},
		{http.MethodPost, "/api/v1/audit", apiKey, s.apiGenerateAudit},
		{http.MethodPost, "/api/v1/source-control/pull", apiKey, s.apiSourceControlPull},
		{http.MethodGet, "/rest/push", signedIn, s.pushStream},
		{http.MethodPost, "/rest/debug/ping", ownerOnly, s.postDebugPing},
		{http.MethodGet, "/rest/debug/ping/:id", ownerOnly, s.getDebugPing},
		// The built-in prompts host (FLOWMILL_PROMPTS_ENABLED without FLOWMILL_PROMPTS_HOST).
		{http.MethodGet, "/rest/prompts-host/prompts", signedIn, s.getPrompts},
		{http.MethodPost, "/rest/prompts-host/prompt", signedIn, s.postPromptContact},
		{http.MethodPost, "/rest/prompts-host/value-survey", signedIn, s.postValueSurvey},
		{http.MethodGet, "/rest/prompt-answers", ownerOnly, s.getPromptAnswers},

		{http.MethodGet, "/rest/node-types", signedIn, s.getNodeTypes},
		{http.MethodPost, "/rest/node-types", signedIn, s.postNodeTypes},
		{http.MethodGet, "/rest/node-icon/:type", signedIn, s.getNodeIcon},
		{http.MethodGet, "/rest/node-icon/:scope/:type", signedIn, s.getNodeIcon},
		{http.MethodGet, "/rest/node-parameter-options", signedIn, s.getNodeParameterOptions},
		{http.MethodGet, "/rest/nodes-list-search", signedIn, s.getNodesListSearch},
		{http.MethodGet, "/rest/get-mapping-fields", signedIn, s.getMappingFields},
		{http.MethodGet, "/rest/node-translation-headers", signedIn, s.getNodeTranslationHeaders},
		{http.MethodGet, "/rest/credentials", signedIn, s.getCredentials},
		{http.MethodGet, "/rest/credential-types", signedIn, s.getCredentialTypes},
		// Fixed paths under /rest/credentials/ come before /rest/credentials/:id, which would match them.
		{http.MethodGet, "/rest/credentials/new", signedIn, s.getNewCredentialName},
		{http.MethodPost, "/rest/credentials/test", signedIn, s.postCredentialTest},
		{http.MethodGet, "/rest/credentials/:id", signedIn, s.getCredential},
		{http.MethodPost, "/rest/credentials", signedIn, s.postCredential},
		{http.MethodPatch, "/rest/credentials/:id", signedIn, s.patchCredential},
		{http.MethodDelete, "/rest/credentials/:id", signedIn, s.deleteCredential},
		{http.MethodGet, "/rest/credential-icon/:name", signedIn, s.getCredentialIcon},
		{http.MethodGet, "/rest/credential-translation", signedIn, s.getCredentialTranslation},
		// Fixed paths under /rest/workflows/ come before /rest/workflows/:id, which would match them.
		{http.MethodGet, "/rest/workflows", signedIn, s.getWorkflows},
		{http.MethodPost, "/rest/workflows", signedIn, s.postWorkflow},
		{http.MethodGet, "/rest/workflows/new", signedIn, s.getNewWorkflow},
		{http.MethodGet, "/rest/workflows/from-url", signedIn, s.getWorkflowFromURL},
		{http.MethodGet, "/rest/workflows/:id", signedIn, s.getWorkflow},
		{http.MethodPatch, "/rest/workflows/:id", signedIn, s.patchWorkflow},
		{http.MethodDelete, "/rest/workflows/:id", signedIn, s.deleteWorkflow},
		{http.MethodGet, "/rest/options/timezones", signedIn, s.getTimezones},
		{http.MethodGet, "/rest/tags", signedIn, s.getTags},
		{http.MethodPost, "/rest/tags", signedIn, s.postTag},
		{http.MethodPatch, "/rest/tags/:id", signedIn, s.patchTag},
		{http.MethodDelete, "/rest/tags/:id", ownerOnly, s.deleteTag},
		{http.MethodPost, "/rest/workflows/run", signedIn, s.postWorkflowRun},
		{http.MethodPost, "/rest/expressions/evaluate", signedIn, s.postEvaluateExpression},
		{http.MethodGet, "/rest/executions", signedIn, s.getExecutions},
		{http.MethodGet, "/rest/executions/:id", signedIn, s.getExecution},
		{http.MethodGet, "/rest/data/:id", signedIn, s.getBinaryData},
		{http.MethodPost, "/rest/executions/:id/retry", signedIn, s.postRetryExecution},
		{http.MethodPost, "/rest/executions/delete", signedIn, s.postDeleteExecutions},
		{http.MethodGet, "/rest/executions-current", signedIn, s.getCurrentExecutions},
		{http.MethodPost, "/rest/executions-current/:id/stop", signedIn, s.postStopExecution},
		{http.MethodGet, "/rest/active", signedIn, s.getActive},
		{http.MethodGet, "/rest/active/error/:id", signedIn, s.getActiveError},
		{http.MethodDelete, "/rest/test-webhook/:id", signedIn, s.deleteTestWebhook},
		// The callbacks are reached by the editor's popup, top-level GETs that carry the SameSite=Lax
		// session cookie; the state must belong to the signed-in user.
		{http.MethodGet, "/rest/oauth2-credential/auth", signedIn, s.getOAuth2Auth},
		{http.MethodGet, "/rest/oauth2-credential/callback", signedIn, s.getOAuth2Callback},
		{http.MethodGet, "/rest/oauth1-credential/auth", signedIn, s.getOAuth1Auth},
		{http.MethodGet, "/rest/oauth1-credential/callback", signedIn, s.getOAuth1Callback},
		// Node documentation pages, built in so the editor's Docs links work offline.
		{http.MethodGet, "/docs/nodes", signedIn, s.getNodeDocsIndex},
		{http.MethodGet, "/docs/nodes/:type", signedIn, s.getNodeDoc},
		{http.MethodGet, "/docs/nodes/:scope/:type", signedIn, s.getNodeDoc},
		// The built-in templates host: n8n's public templates API over the catalogue shipped in
		// the binary. Public like n8n's: it holds no account data.
		{http.MethodGet, "/templates-host/health", public, s.templatesHealth},
		{http.MethodGet, "/templates-host/templates/categories", public, s.templatesCategories},
		{http.MethodGet, "/templates-host/templates/collections", public, s.templatesCollections},
		{http.MethodGet, "/templates-host/templates/collections/:id", public, s.templatesCollection},
		{http.MethodGet, "/templates-host/templates/workflows", public, s.templatesWorkflows},
		{http.MethodGet, "/templates-host/templates/workflows/:id", public, s.templatesWorkflow},
		{http.MethodGet, "/templates-host/workflows/templates/:id", public, s.templatesWorkflowImport},
	}, s.webhookRoutes()...)
}

// mount registers the route table under the base path, then the web app for every other GET.
func (s *server) mount() {
	base := strings.TrimSuffix(s.cfg.BasePath, "/")
	for _, r := range s.routes() {
		handlers := []any{s.guard(r.access)}
		if carriesJSON(r.path) {
			handlers = append(handlers, boundedNesting, wellFormedText)
		}
		s.app.Add([]string{r.method}, base+r.path, s.sameOrigin(r), append(handlers, r.handler)...)
	}
	s.app.Use(func(c fiber.Ctx) error {
		p, under := strings.CutPrefix(c.Path(), s.cfg.BasePath)
		if c.Path()+"/" == s.cfg.BasePath {
			p, under = "", true
		}
		if under && strings.HasPrefix(p, "api/v1/") {
			return s.publicAPIFallback(c)
		}
		if !under || isAPIPath(p) || (c.Method() != http.MethodGet && c.Method() != http.MethodHead) {
			return notFound("Not found: " + c.Method() + " " + c.Path())
		}
		return s.web.serve(c, p)
	})
}

// isAPIPath tells the machine-facing paths, which never fall back to the web app.
func isAPIPath(p string) bool {
	for _, prefix := range []string{"rest/", "api/", "webhook/", "webhook-test/", "webhook-waiting/", "healthz", "metrics", "templates-host/"} {
		if strings.HasPrefix(p+"/", prefix) || strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}
