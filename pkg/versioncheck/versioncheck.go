// Package versioncheck asks the version endpoint (FLOWMILL_VERSION_NOTIFICATIONS_ENDPOINT)
// which releases are newer than the running one, as n8n's versions endpoint answers it: GET
// <endpoint><current version> with the instance id in the n8n-instance-id header, answered with
// a JSON array of versions (the current one among them, when the endpoint knows it).
//
// Only what can be checked is passed on: a listed version counts as newer when its name is a
// semantic version above the running one, whatever the endpoint says; a running version that is
// not a semantic version has no newer ones that can be told, so the check fails.
package versioncheck

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/semver"
)

// Limits of one check (documented in README.md, "Limits").
const (
	// DefaultTimeout bounds a check from connecting to the last byte: 5 s.
	DefaultTimeout = 5 * time.Second
	// MaxBytes is the largest answer read: 1 MiB; a longer one fails the check.
	MaxBytes = 1 << 20
	// MaxRedirects is how many redirects (to http(s) addresses only) a check follows.
	MaxRedirects = 5
)

// InstanceIDHeader carries the instance id, named as n8n's editor and audit send it.
const InstanceIDHeader = "n8n-instance-id"

// ErrUnknownVersion is a running version that is not a semantic version (a development build):
// no listed version can be said to be newer.
var ErrUnknownVersion = errors.New("the running version is not a semantic version")

// Version is one release as the endpoint lists it (n8n's shape; node icons are not kept).
type Version struct {
	Name                    string `json:"name"`
	CreatedAt               string `json:"createdAt"`
	Description             string `json:"description"`
	DocumentationURL        string `json:"documentationUrl"`
	HasBreakingChange       bool   `json:"hasBreakingChange"`
	HasSecurityFix          bool   `json:"hasSecurityFix"`
	HasSecurityIssue        bool   `json:"hasSecurityIssue"`
	SecurityIssueFixVersion string `json:"securityIssueFixVersion,omitempty"`
	// Nodes are the node types the release adds, by name and display name.
	Nodes []Node `json:"nodes"`
}

// Node is a node type a release adds.
type Node struct {
	Name        string `json:"name"`
	DisplayName string `json:"displayName"`
}

// Result is what the endpoint says about the running version.
type Result struct {
	// Current is the running version's entry, nil when the endpoint does not list it.
	Current *Version
	// Newer are the listed versions above the running one, newest first; empty when it is
	// the latest the endpoint knows.
	Newer []Version
}

// Config is what a Checker needs.
type Config struct {
	// Client makes the call; it should apply the egress policy (config.Config.Egress). Required.
	// Its Timeout and CheckRedirect are not used: the Checker has its own.
	Client *http.Client
	// Endpoint is the version endpoint; the running version is appended to it. Required.
	Endpoint string
	// InstanceID is sent in InstanceIDHeader.
	InstanceID string
	// Timeout bounds a check. Default DefaultTimeout.
	Timeout time.Duration
}

// Checker asks the version endpoint. Safe for concurrent use.
type Checker struct {
	client     *http.Client
	endpoint   string
	instanceID string
}

// New returns a checker of cfg, or an error naming what is missing.
func New(cfg Config) (*Checker, error) {
	if cfg.Client == nil {
		return nil, errors.New("versioncheck: a client is required")
	}
	if cfg.Endpoint == "" {
		return nil, errors.New("versioncheck: an endpoint is required")
	}
	client := *cfg.Client
	client.Timeout = cmp.Or(cfg.Timeout, DefaultTimeout)
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return fmt.Errorf("redirected to a %s address", req.URL.Scheme)
		}
		if len(via) > MaxRedirects {
			return fmt.Errorf("more than %d redirects", MaxRedirects)
		}
		return nil
	}
	return &Checker{client: &client, endpoint: cfg.Endpoint, instanceID: cfg.InstanceID}, nil
}

// Check asks the endpoint about current. Any failure to get a well-formed answer (refused by
// the egress policy, unreachable, timed out, a status other than 200, not a JSON array of
// versions, too long) is an error.
func (c *Checker) Check(ctx context.Context, current string) (Result, error) {
	running := canonical(current)
	if running == "" {
		return Result{}, fmt.Errorf("%w: %q", ErrUnknownVersion, current)
	}
	versions, err := c.fetch(ctx, current)
	if err != nil {
		return Result{}, err
	}
	var res Result
	for i := range versions {
		v := &versions[i]
		name := canonical(v.Name)
		switch {
		case name == "":
			continue // not a version: nothing can be said of it
		case semver.Compare(name, running) == 0:
			if res.Current == nil {
				res.Current = v
			}
		case semver.Compare(name, running) > 0:
			if v.Nodes == nil {
				v.Nodes = []Node{} // a list, as n8n's shape has it, even when the endpoint leaves it out
			}
			res.Newer = append(res.Newer, *v)
		}
	}
	slices.SortStableFunc(res.Newer, func(a, b Version) int {
		return semver.Compare(canonical(b.Name), canonical(a.Name))
	})
	return res, nil
}

func (c *Checker) fetch(ctx context.Context, current string) ([]Version, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.endpoint+current, nil)
	if err != nil {
		return nil, fmt.Errorf("version endpoint: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	if c.instanceID != "" {
		req.Header.Set(InstanceIDHeader, c.instanceID)
	}
	res, err := c.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("version endpoint: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("version endpoint: answered %s", res.Status)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("version endpoint: reading the answer: %w", err)
	}
	if len(body) > MaxBytes {
		return nil, fmt.Errorf("version endpoint: the answer is longer than %d bytes", MaxBytes)
	}
	var versions []Version
	if err := json.Unmarshal(body, &versions); err != nil {
		return nil, fmt.Errorf("version endpoint: the answer is not a JSON array of versions: %w", err)
	}
	return versions, nil
}

// canonical is v as a semantic version with the "v" prefix the semver package wants, or "" when
// it is not one.
func canonical(v string) string {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "v") {
		v = "v" + v
	}
	if !semver.IsValid(v) {
		return ""
	}
	return v
}
