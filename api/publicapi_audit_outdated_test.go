package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/mod/semver"

	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/versioncheck"
)

// versionsEndpoint is a local version endpoint: it answers what answer holds and records the
// paths and instance ids it was asked with.
type versionsEndpoint struct {
	srv    *httptest.Server
	mu     sync.Mutex
	answer string
	asked  []string
}

func startVersionsEndpoint(t *testing.T) *versionsEndpoint {
	v := &versionsEndpoint{answer: "[]"}
	v.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v.mu.Lock()
		defer v.mu.Unlock()
		v.asked = append(v.asked, r.URL.Path+" "+r.Header.Get(versioncheck.InstanceIDHeader))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(v.answer))
	}))
	t.Cleanup(v.srv.Close)
	return v
}

func (v *versionsEndpoint) set(answer string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.answer, v.asked = answer, nil
}

func (v *versionsEndpoint) calls() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]string(nil), v.asked...)
}

// instanceSections audits the instance alone and returns its sections by title, in order.
func instanceSections(t *testing.T, api apiClient) ([]string, map[string]auditSection) {
	t.Helper()
	var out map[string]struct {
		Sections []auditSection `json:"sections"`
	}
	api.ok(t, "POST", "audit", `{"additionalOptions":{"categories":["instance"]}}`, &out)
	titles, byTitle := []string{}, map[string]auditSection{}
	for _, sec := range out["Instance Risk Report"].Sections {
		titles = append(titles, sec.Title)
		byTitle[sec.Title] = sec
	}
	return titles, byTitle
}

// TestPublicAPIAuditOutdatedInstance checks the "Outdated instance" finding against a local
// version endpoint: reported with the newer releases when there are some, left out when there
// are none or the endpoint cannot be reached.
func TestPublicAPIAuditOutdatedInstance(t *testing.T) {
	require.True(t, semver.IsValid("v"+version), "the test needs a release version, not %q", version)
	next := strings.TrimPrefix(semver.Major("v"+version), "v") + ".99.0" // above any minor of this major
	versions := startVersionsEndpoint(t)
	e, _ := startAccounts(t, map[string]string{
		"FLOWMILL_VERSION_NOTIFICATIONS_ENABLED":  "true",
		"FLOWMILL_VERSION_NOTIFICATIONS_ENDPOINT": versions.srv.URL + "/api/versions/",
		"FLOWMILL_VERSION_NOTIFICATIONS_INFO_URL": "https://docs.example.com/updating",
	})
	owner := setUpOwner(t, e)
	api := apiClient{e: e, key: createKey(t, owner), header: n8nAPIKeyHeader}
	asked := "/api/versions/" + version + " " + e.in.InstanceID()

	// Two newer releases, one with a security fix; the running one and an older one are not
	// reported, nor is an entry that is not a version.
	versions.set(fmt.Sprintf(`[
		{"name":%q,"createdAt":"2026-09-01T10:00:00.000Z","description":"Running","hasSecurityIssue":true,"securityIssueFixVersion":%q,"nodes":[]},
		{"name":%q,"createdAt":"2026-10-01T10:00:00.000Z","description":"Patch","documentationUrl":"https://docs.example.com/patch","hasSecurityFix":true},
		{"name":%q,"createdAt":"2026-11-01T10:00:00.000Z","description":"Big release","hasBreakingChange":true,
		 "nodes":[{"name":"n8n-nodes-base.brandNew","displayName":"Brand New","iconData":{"type":"file","fileBuffer":"AAAA"}}]},
		{"name":"0.0.1","createdAt":"2020-01-01T10:00:00.000Z","description":"Ancient","nodes":[]},
		{"name":"nightly","createdAt":"2026-11-02T10:00:00.000Z","description":"Not a version","nodes":[]}
	]`, version, version+"-fix", version+"-fix", next))
	// version+"-fix" is a pre-release of the running version, so below it: only next is newer.
	titles, got := instanceSections(t, api)
	require.Equal(t, []string{"Outdated instance", "Security settings"}, titles)
	require.Equal(t, []string{asked}, versions.calls(), "GET <endpoint><version> with the instance id header")
	outdated := got["Outdated instance"]
	require.Equal(t, []versioncheck.Version{{Name: next, CreatedAt: "2026-11-01T10:00:00.000Z", Description: "Big release",
		HasBreakingChange: true, Nodes: []versioncheck.Node{{Name: "n8n-nodes-base.brandNew", DisplayName: "Brand New"}}}}, outdated.NextVersions)
	require.Equal(t, fmt.Sprintf("This Flowmill instance is outdated. Currently at version %s, missing 1 update. Version %s has a known security issue, fixed in version %s-fix.", version, version, version), outdated.Description)
	require.Equal(t, "Consider updating this Flowmill instance to the latest version to prevent security vulnerabilities. See: https://docs.example.com/updating", outdated.Recommendation)
	require.Equal(t, true, got["Security settings"].Settings["features"].(map[string]any)["versionNotificationsEnabled"])

	// A patch with a security fix above the running version is reported too, newest first.
	patch := strings.TrimPrefix(semver.MajorMinor("v"+version), "v") + ".999"
	versions.set(fmt.Sprintf(`[{"name":%q,"createdAt":"2026-10-01T10:00:00.000Z","description":"Patch","hasSecurityFix":true},
		{"name":%q,"createdAt":"2026-11-01T10:00:00.000Z","description":"Big release","nodes":[]}]`, patch, next))
	_, got = instanceSections(t, api)
	outdated = got["Outdated instance"]
	require.Len(t, outdated.NextVersions, 2)
	require.Equal(t, next, outdated.NextVersions[0].Name)
	require.Equal(t, patch, outdated.NextVersions[1].Name)
	require.True(t, outdated.NextVersions[1].HasSecurityFix)
	require.Equal(t, fmt.Sprintf("This Flowmill instance is outdated. Currently at version %s, missing 2 updates. Newer versions contain security updates.", version), outdated.Description)

	// Nothing newer: no section.
	versions.set(fmt.Sprintf(`[{"name":%q,"createdAt":"2026-09-01T10:00:00.000Z","description":"Running","nodes":[]},
		{"name":"0.0.1","createdAt":"2020-01-01T10:00:00.000Z","description":"Ancient","nodes":[]}]`, version))
	titles, _ = instanceSections(t, api)
	require.Equal(t, []string{"Security settings"}, titles)
	require.Equal(t, []string{asked}, versions.calls())

	// An answer that is not a list of versions, then an endpoint that is gone: no section, and
	// the audit still answers.
	versions.set(`{"error":"maintenance"}`)
	titles, _ = instanceSections(t, api)
	require.Equal(t, []string{"Security settings"}, titles)
	require.Len(t, versions.calls(), 1)
	versions.srv.Close()
	titles, _ = instanceSections(t, api)
	require.Equal(t, []string{"Security settings"}, titles)
}

// TestPublicAPIAuditVersionNotificationsOff checks that the audit asks no endpoint unless
// version notifications are on, even when an endpoint is configured.
func TestPublicAPIAuditVersionNotificationsOff(t *testing.T) {
	versions := startVersionsEndpoint(t)
	versions.set(`[{"name":"999.0.0","createdAt":"2026-11-01T10:00:00.000Z","description":"Newer","nodes":[]}]`)
	e, _ := startAccounts(t, map[string]string{"FLOWMILL_VERSION_NOTIFICATIONS_ENDPOINT": versions.srv.URL + "/"})
	owner := setUpOwner(t, e)
	api := apiClient{e: e, key: createKey(t, owner), header: n8nAPIKeyHeader}
	titles, got := instanceSections(t, api)
	require.Equal(t, []string{"Security settings"}, titles)
	require.Empty(t, versions.calls())
	require.Equal(t, false, got["Security settings"].Settings["features"].(map[string]any)["versionNotificationsEnabled"])
}

// TestSettingsVersionNotifications checks that the editor gets the version notification
// settings and may call the endpoint's origin from the browser only when they are on.
func TestSettingsVersionNotifications(t *testing.T) {
	for _, tt := range []struct {
		env     map[string]string
		want    map[string]any
		connect string
	}{
		{nil, map[string]any{"enabled": false, "endpoint": config.DefaultVersionsEndpoint, "infoUrl": ""}, "connect-src 'self';"},
		{map[string]string{"FLOWMILL_VERSION_NOTIFICATIONS_ENABLED": "true",
			"FLOWMILL_VERSION_NOTIFICATIONS_ENDPOINT": "https://Versions.example.com:8443/api/versions/",
			"FLOWMILL_VERSION_NOTIFICATIONS_INFO_URL": "https://docs.example.com/updating"},
			map[string]any{"enabled": true, "endpoint": "https://Versions.example.com:8443/api/versions/", "infoUrl": "https://docs.example.com/updating"},
			"connect-src 'self' https://versions.example.com:8443;"},
		{map[string]string{"FLOWMILL_VERSION_NOTIFICATIONS_ENDPOINT": "https://versions.example.com/"},
			map[string]any{"enabled": false, "endpoint": "https://versions.example.com/", "infoUrl": ""}, "connect-src 'self';"},
	} {
		e := startServer(t, tt.env)
		res, b := e.do(t, "GET", "rest/settings", "")
		require.Equal(t, 200, res.StatusCode, string(b))
		var s map[string]any
		decodeData(t, b, &s)
		require.Equal(t, tt.want, s["versionNotifications"])
		res, _ = e.do(t, "GET", "", "")
		require.Contains(t, res.Header.Get("Content-Security-Policy"), tt.connect)
	}
}
