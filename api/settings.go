package main

import (
	"cmp"
	"errors"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/store"
)

// settingsResponse is the server settings object the editor loads first (n8n's UI settings).
type settingsResponse struct {
	EndpointWebhook              string               `json:"endpointWebhook"`
	EndpointWebhookTest          string               `json:"endpointWebhookTest"`
	SaveDataErrorExecution       string               `json:"saveDataErrorExecution"`
	SaveDataSuccessExecution     string               `json:"saveDataSuccessExecution"`
	SaveManualExecutions         bool                 `json:"saveManualExecutions"`
	ExecutionTimeout             int                  `json:"executionTimeout"`
	MaxExecutionTimeout          int                  `json:"maxExecutionTimeout"`
	Timezone                     string               `json:"timezone"`
	URLBaseWebhook               string               `json:"urlBaseWebhook"`
	URLBaseEditor                string               `json:"urlBaseEditor"`
	VersionCli                   string               `json:"versionCli"`
	OAuthCallbackURLs            map[string]string    `json:"oauthCallbackUrls"`
	N8nMetadata                  map[string]any       `json:"n8nMetadata"`
	VersionNotifications         versionNotifications `json:"versionNotifications"`
	InstanceID                   string               `json:"instanceId"`
	Telemetry                    telemetry            `json:"telemetry"`
	PersonalizationSurveyEnabled bool                 `json:"personalizationSurveyEnabled"`
	DefaultLocale                string               `json:"defaultLocale"`
	UserManagement               userManagement       `json:"userManagement"`
	WorkflowTagsDisabled         bool                 `json:"workflowTagsDisabled"`
	LogLevel                     string               `json:"logLevel"`
	HiringBannerEnabled          bool                 `json:"hiringBannerEnabled"`
	Templates                    templatesSettings    `json:"templates"`
	ExecutionMode                string               `json:"executionMode"`
	PublicAPI                    publicAPI            `json:"publicApi"`
	OnboardingCallPromptEnabled  bool                 `json:"onboardingCallPromptEnabled"`
	// DocsURL is where the Help menu's documentation points (FLOWMILL_DOCS_URL, else the
	// built-in node documentation); IssuesURL the issue tracker (FLOWMILL_ISSUES_URL).
	DocsURL   string `json:"docsUrl"`
	IssuesURL string `json:"issuesUrl"`
	// Prompts are FLOWMILL_PROMPTS_*: the host the editor asks for the contact prompt and the
	// value survey (the built-in one at <base path>rest/prompts-host unless one is set).
	Prompts promptsSettings `json:"prompts"`
}

// versionNotifications are FLOWMILL_VERSION_NOTIFICATIONS_*: the editor asks the endpoint for
// newer versions from the browser when enabled.
type versionNotifications struct {
	Enabled  bool   `json:"enabled"`
	Endpoint string `json:"endpoint"`
	InfoURL  string `json:"infoUrl"`
}

type telemetry struct {
	Enabled bool `json:"enabled"`
}

type userManagement struct {
	Enabled              bool `json:"enabled"`
	ShowSetupOnFirstLoad bool `json:"showSetupOnFirstLoad"`
	SMTPSetup            bool `json:"smtpSetup"`
}

type templatesSettings struct {
	Enabled bool   `json:"enabled"`
	Host    string `json:"host"`
}

type publicAPI struct {
	Enabled       bool   `json:"enabled"`
	LatestVersion int    `json:"latestVersion"`
	Path          string `json:"path"`
}

func (s *server) getSettings(c fiber.Ctx) error {
	cfg := s.cfg
	umEnabled := !cfg.UserManagementDisabled
	showSetup := false
	if umEnabled {
		setUp, err := s.flag(c, store.SettingOwnerSetUp)
		if err != nil {
			return err
		}
		skipped, err := s.flag(c, store.SettingSkipOwnerSetup)
		if err != nil {
			return err
		}
		showSetup = !setUp && !skipped
	}
	mode := "queue"
	if cfg.Embedded() {
		mode = "regular"
	}
	versions := versionNotifications{Enabled: cfg.VersionNotificationsEnabled,
		Endpoint: cfg.VersionNotificationsEndpoint, InfoURL: cfg.VersionNotificationsInfoURL}
	return respond(c, settingsResponse{
		EndpointWebhook:          "webhook",
		EndpointWebhookTest:      "webhook-test",
		SaveDataErrorExecution:   cfg.SaveDataOnError,
		SaveDataSuccessExecution: cfg.SaveDataOnSuccess,
		SaveManualExecutions:     cfg.SaveManualExecutions,
		ExecutionTimeout:         cfg.ExecutionsTimeout,
		MaxExecutionTimeout:      cfg.ExecutionsTimeoutMax,
		Timezone:                 cfg.Timezone,
		URLBaseWebhook:           cfg.WebhookURL,
		URLBaseEditor:            cfg.PublicURL,
		VersionCli:               version,
		OAuthCallbackURLs: map[string]string{
			"oauth1": cfg.PublicURL + "rest/oauth1-credential/callback",
			"oauth2": cfg.PublicURL + "rest/oauth2-credential/callback",
		},
		N8nMetadata:                  map[string]any{},
		VersionNotifications:         versions,
		InstanceID:                   s.in.InstanceID(),
		PersonalizationSurveyEnabled: cfg.PersonalizationEnabled,
		DefaultLocale:                cfg.DefaultLocale,
		UserManagement:               userManagement{Enabled: umEnabled, ShowSetupOnFirstLoad: showSetup, SMTPSetup: cfg.SMTPSetUp()},
		WorkflowTagsDisabled:         cfg.WorkflowTagsDisabled,
		LogLevel:                     cfg.LogLevel,
		Templates:                    templatesSettings{Enabled: cfg.TemplatesEnabled, Host: cmp.Or(cfg.TemplatesHost, cfg.BasePath+builtinTemplatesHost)},
		ExecutionMode:                mode,
		PublicAPI:                    publicAPI{Enabled: !cfg.PublicAPIDisabled, LatestVersion: 1, Path: "api"},
		DocsURL:                      cmp.Or(cfg.DocsURL, cfg.BasePath+"docs/nodes"),
		IssuesURL:                    cfg.IssuesURL,
		Prompts:                      s.promptsSettings(),
	})
}

// flag reads a boolean instance setting; a missing one is false.
func (s *server) flag(c fiber.Ctx, key string) (bool, error) {
	v, err := s.in.Store.GetSetting(c.Context(), key)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return v == "true", err
}
