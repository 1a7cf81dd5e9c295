package main

import (
	"context"
	"fmt"
	"strings"
)

// outdatedInstance is the audit's "Outdated instance" section (n8n's): the releases the version
// endpoint lists above the running version. It is nil when version notifications are off, when
// this is the latest release the endpoint knows, and when the endpoint cannot be asked (the
// failure is logged): the audit then says nothing about the version rather than something it
// does not know.
func (s *server) outdatedInstance(ctx context.Context) *auditSection {
	if s.versions == nil {
		return nil
	}
	res, err := s.versions.Check(ctx, version)
	if err != nil {
		s.log.Warn("audit: version check failed; the report leaves out the outdated instance section",
			"endpoint", s.cfg.VersionNotificationsEndpoint, "version", version, "err", err)
		return nil
	}
	if len(res.Newer) == 0 {
		return nil
	}
	updates := "update"
	if len(res.Newer) > 1 {
		updates = "updates"
	}
	description := []string{fmt.Sprintf("This Flowmill instance is outdated. Currently at version %s, missing %d %s.",
		version, len(res.Newer), updates)}
	if res.Current != nil && res.Current.HasSecurityIssue {
		if fix := res.Current.SecurityIssueFixVersion; fix != "" {
			description = append(description, fmt.Sprintf("Version %s has a known security issue, fixed in version %s.", version, fix))
		} else {
			description = append(description, fmt.Sprintf("Version %s has a known security issue.", version))
		}
	}
	for _, v := range res.Newer {
		if v.HasSecurityFix || v.HasSecurityIssue {
			description = append(description, "Newer versions contain security updates.")
			break
		}
	}
	recommendation := "Consider updating this Flowmill instance to the latest version to prevent security vulnerabilities."
	if info := s.cfg.VersionNotificationsInfoURL; info != "" {
		recommendation += " See: " + info
	}
	return &auditSection{
		Title:          "Outdated instance",
		Description:    strings.Join(description, " "),
		Recommendation: recommendation,
		NextVersions:   res.Newer,
	}
}
