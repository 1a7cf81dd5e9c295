package ftp

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestParseListLine(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		line string
		want map[string]any
	}{
		{"-rw-r--r--    1 1000     1000         1234 Mar 09 08:05 report.csv", map[string]any{
			"type": "-", "name": "report.csv", "sticky": false, "rights": map[string]any{"user": "rw", "group": "r", "other": "r"},
			"acl": false, "owner": "1000", "group": "1000", "size": float64(1234), "modifyTime": "2024-03-09T08:05:00.000Z", "path": "/x"}},
		// A recent-form date more than a day ahead is last year's.
		{"drwxrwxrwt+   2 root root 4096 Dec 24 10:00 tmp", map[string]any{
			"type": "d", "name": "tmp", "sticky": true, "rights": map[string]any{"user": "rwx", "group": "rwx", "other": "rwx"},
			"acl": true, "owner": "root", "group": "root", "size": float64(4096), "modifyTime": "2023-12-24T10:00:00.000Z", "path": "/x"}},
		{"lrwxrwxrwx 1 a b 7 Jan  1  2019 link -> target", map[string]any{
			"type": "l", "name": "link", "target": "target", "sticky": false, "rights": map[string]any{"user": "rwx", "group": "rwx", "other": "rwx"},
			"acl": false, "owner": "a", "group": "b", "size": float64(7), "modifyTime": "2019-01-01T00:00:00.000Z", "path": "/x"}},
		{"-rw-r----T 1 a b 0 Jan  1  2019 s", nil},
		{"03-05-24  01:15PM       <DIR>          Reports", map[string]any{
			"name": "Reports", "type": "d", "size": float64(0), "modifyTime": "2024-03-05T13:15:00.000Z", "path": "/x"}},
		{"12-31-99  12:00AM                 42 old.txt", map[string]any{
			"name": "old.txt", "type": "-", "size": float64(42), "modifyTime": "1999-12-31T00:00:00.000Z", "path": "/x"}},
	}
	for _, tc := range tests {
		e, ok := parseListLine(tc.line, now)
		require.True(t, ok, tc.line)
		if tc.want == nil {
			require.True(t, e.sticky)
			require.Equal(t, "", e.rights[2])
			continue
		}
		require.Equal(t, tc.want, workflow.ToMaps(e.object("/x")), tc.line)
	}
	for _, line := range []string{"total 12", "", "garbage"} {
		_, ok := parseListLine(line, now)
		require.False(t, ok, line)
	}
}
