package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store/storetest"
)

// instance is one Flowmill installation for a test: its settings, as the environment a command
// runs with.
type instance map[string]string

// sqliteInstance is a fresh embedded installation (SQLite in a data folder of its own).
func sqliteInstance(t *testing.T, key string) instance {
	return instance{"FLOWMILL_DATA_DIR": t.TempDir(), "FLOWMILL_ENCRYPTION_KEY": key}
}

// postgresInstance is a fresh installation on its own Postgres schema.
func postgresInstance(t *testing.T, key string) instance {
	return instance{"FLOWMILL_DATA_DIR": t.TempDir(), "FLOWMILL_ENCRYPTION_KEY": key,
		"FLOWMILL_DATABASE_URL": storetest.PostgresSchemaURL(t)}
}

// run runs a command of bin/worker on the instance and returns its exit status and output.
func (in instance) run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	for _, k := range []string{"FLOWMILL_DATA_DIR", "FLOWMILL_ENCRYPTION_KEY", "FLOWMILL_DATABASE_URL", "FLOWMILL_REDIS_URL"} {
		t.Setenv(k, in[k])
	}
	t.Setenv("FLOWMILL_LOG_LEVEL", "warn")
	var out, errOut bytes.Buffer
	p := Program{Name: "worker", Version: "test", Serve: func([]string) error { t.Fatal("no command ran"); return nil },
		Execute: func(args []string, stdout, stderr io.Writer) int { return ExecuteStored(args[1], stdout, stderr) }}
	code = Main(p, args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// must runs a command that has to succeed.
func (in instance) must(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := in.run(t, args...)
	require.Equal(t, 0, code, "%v: %s", args, errOut)
	return out
}

// exported reads an export as generic JSON, without the fields an import renews.
func exported(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var items []map[string]any
	require.NoError(t, json.Unmarshal(b, &items))
	for _, it := range items {
		delete(it, "updatedAt")
		delete(it, "versionId")
		if tags, ok := it["tags"].([]any); ok {
			for _, tag := range tags {
				m := tag.(map[string]any)
				delete(m, "id") // tag ids are the instance's own
				delete(m, "createdAt")
				delete(m, "updatedAt")
			}
		}
	}
	return items
}

func forEachDatabase(t *testing.T, fn func(t *testing.T, fresh func(key string) instance)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, func(key string) instance { return sqliteInstance(t, key) }) })
	t.Run("postgres", func(t *testing.T) { fn(t, func(key string) instance { return postgresInstance(t, key) }) })
}

// TestRoundTrip imports n8n's files into one installation, exports everything, imports the
// export into a fresh installation with another encryption key and exports again: the
// workflows are identical (inactive, as every import leaves them) and the credentials decrypt to
// the same data.
func TestRoundTrip(t *testing.T) {
	forEachDatabase(t, func(t *testing.T, fresh func(string) instance) {
		a := fresh("first-instance-key-0123456789")
		a.must(t, "import:workflow", "--input", "testdata/n8n-workflows.json")
		a.must(t, "import:credentials", "--input=testdata/n8n-credentials.json")

		dir := t.TempDir()
		a.must(t, "export:workflow", "--all", "--separate", "--output", filepath.Join(dir, "workflows"))
		a.must(t, "export:workflow", "--all", "--pretty", "--output", filepath.Join(dir, "workflows.json"))
		a.must(t, "export:credentials", "--all", "--decrypted", "--output", filepath.Join(dir, "credentials.json"))
		files, err := filepath.Glob(filepath.Join(dir, "workflows", "*.json"))
		require.NoError(t, err)
		require.Len(t, files, 2)
		require.FileExists(t, filepath.Join(dir, "workflows", "12.json"), "numeric n8n ids are kept, as strings")

		first := exported(t, must(os.ReadFile(filepath.Join(dir, "workflows.json"))))
		require.Len(t, first, 2)
		byName := map[string]map[string]any{}
		for _, w := range first {
			byName[w["name"].(string)] = w
		}
		nightly := byName["Nightly report"]
		require.Equal(t, "12", nightly["id"])
		require.Equal(t, false, nightly["active"], "imports are inactive")
		require.Equal(t, "2022-07-01T10:00:00Z", nightly["createdAt"])
		require.Equal(t, map[string]any{"saveManualExecutions": true, "timezone": "Europe/Berlin"}, nightly["settings"])
		require.Equal(t, []any{map[string]any{"name": "reports"}}, nightly["tags"])
		require.Equal(t, map[string]any{"node:Cron": map[string]any{"last": float64(1)}}, byName["Manual run"]["staticData"])

		b := fresh("second-instance-key-9876543210")
		b.must(t, "import:workflow", "--separate", "--input", filepath.Join(dir, "workflows"))
		b.must(t, "import:credentials", "--input", filepath.Join(dir, "credentials.json"))
		second := exported(t, []byte(b.must(t, "export:workflow", "--all")))
		require.ElementsMatch(t, first, second)

		creds := exported(t, []byte(b.must(t, "export:credentials", "--all", "--decrypted")))
		require.Len(t, creds, 2)
		for _, c := range creds {
			switch c["id"] {
			case "7":
				require.Equal(t, map[string]any{"user": "alice", "password": "s3cret"}, c["data"])
			case "8":
				require.Equal(t, map[string]any{"name": "X-Api-Key", "value": "k-123"}, c["data"])
			default:
				t.Fatalf("unexpected credential %v", c)
			}
		}
		// Without --decrypted the data stays encrypted, and only this installation's key opens it.
		enc := exported(t, []byte(b.must(t, "export:credentials", "--id", "7")))
		require.IsType(t, "", enc[0]["data"])
		require.NotContains(t, enc[0]["data"], "s3cret")
		encFile := filepath.Join(dir, "encrypted.json")
		require.NoError(t, os.WriteFile(encFile, []byte(b.must(t, "export:credentials", "--id", "7")), 0o600))
		code, _, errOut := a.run(t, "import:credentials", "--input", encFile)
		require.Equal(t, ExitUsage, code)
		require.Contains(t, errOut, "encrypted with another key")

		// Importing the same file again overwrites by id: still two workflows.
		b.must(t, "import:workflow", "--separate", "--input", filepath.Join(dir, "workflows"))
		require.Len(t, exported(t, []byte(b.must(t, "export:workflow", "--all"))), 2)
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestBadFilesImportNothing: every unusable input is refused with its file (and item) named,
// and nothing of it is stored, even when the bad item comes after good ones.
func TestBadFilesImportNothing(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
		return p
	}
	good := `{"name":"Good","nodes":[{"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}}],"connections":{}}`
	cases := []struct {
		name string
		args []string
		want string
		code int
	}{
		{"not JSON", []string{"import:workflow", "--input", write("broken.json", `[{"name":`)}, "broken.json: not valid JSON", ExitUsage},
		{"not workflows", []string{"import:workflow", "--input", write("number.json", `42`)}, "number.json: the file must hold workflows", ExitUsage},
		{"bad second item", []string{"import:workflow", "--input", write("second.json", `[`+good+`,{"name":"Bad","nodes":[{"name":"A","type":"x"}],"connections":{"A":{"main":[[{"node":"Gone","type":"main","index":0}]]}}}]`)},
			`second.json (item 2), workflow "Bad": ` + "invalid workflow", ExitUsage},
		{"no name", []string{"import:workflow", "--input", write("noname.json", `[`+good+`,{"nodes":[],"connections":{}}]`)}, "noname.json (item 2): the workflow has no name", ExitUsage},
		{"taken name", []string{"import:workflow", "--input", write("taken.json", `[`+good+`,`+good+`]`)}, `taken.json (item 2), workflow "Good": workflow name "Good" is taken`, 1},
		{"folder without --separate", []string{"import:workflow", "--input", dir}, "add --separate", ExitUsage},
		{"file with --separate", []string{"import:workflow", "--separate", "--input", write("one.json", good)}, "--separate reads every *.json file of a folder", ExitUsage},
		{"no input", []string{"import:workflow"}, "--input is required", ExitUsage},
		{"credential without type", []string{"import:credentials", "--input", write("creds.json", `[{"name":"ok","type":"httpBasicAuth","data":{}},{"name":"c","data":{}}]`)},
			`creds.json (item 2), credential "c": it has no type`, ExitUsage},
		{"n8n-encrypted credential", []string{"import:credentials", "--input", "testdata/n8n-credentials-encrypted.json"}, "export it with --decrypted", ExitUsage},
		{"export without selection", []string{"export:workflow"}, "--all or --id is required", ExitUsage},
		{"update without --active", []string{"update:workflow", "--all"}, "--active=true or --active=false is required", ExitUsage},
	}
	forEachDatabase(t, func(t *testing.T, fresh func(string) instance) {
		in := fresh("bad-files-key-0123456789")
		for _, tc := range cases {
			code, _, errOut := in.run(t, tc.args...)
			require.Equal(t, tc.code, code, "%s: %s", tc.name, errOut)
			require.Contains(t, errOut, tc.want, tc.name)
			require.Equal(t, 1, strings.Count(strings.TrimSpace(errOut), "\n")+1, "%s: one line: %s", tc.name, errOut)
		}
		code, _, errOut := in.run(t, "export:workflow", "--all")
		require.Equal(t, 1, code)
		require.Contains(t, errOut, "no workflows found", "nothing was imported")
		code, _, errOut = in.run(t, "export:credentials", "--all")
		require.Equal(t, 1, code)
		require.Contains(t, errOut, "no credentials found", "nothing was imported")
	})
}

// TestUpdateAndExecute activates an imported trigger workflow through the same checks as the
// editor, refuses one without a trigger, and runs a stored workflow with execute --id.
func TestUpdateAndExecute(t *testing.T) {
	in := sqliteInstance(t, "update-execute-key-0123456789")
	in.must(t, "import:workflow", "--input", "testdata/n8n-workflows.json")

	in.must(t, "update:workflow", "--id", "12", "--active=true")
	ws := exported(t, []byte(in.must(t, "export:workflow", "--id", "12")))
	require.Equal(t, true, ws[0]["active"])

	code, _, errOut := in.run(t, "update:workflow", "--all", "--active=true")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "workflow Ab3dE5fG7hI9jK1l: Workflow cannot be activated")
	in.must(t, "update:workflow", "--all", "--active=false")
	for _, w := range exported(t, []byte(in.must(t, "export:workflow", "--all"))) {
		require.Equal(t, false, w["active"], w["name"])
	}

	out := in.must(t, "execute", "--id", "Ab3dE5fG7hI9jK1l")
	var res struct {
		Status string `json:"status"`
		Data   struct {
			ResultData struct {
				RunData map[string][]struct {
					Data struct {
						Main [][]struct {
							JSON map[string]any `json:"json"`
						} `json:"main"`
					} `json:"data"`
				} `json:"runData"`
			} `json:"resultData"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	require.Equal(t, "success", res.Status)
	require.Equal(t, float64(42), res.Data.ResultData.RunData["Set"][0].Data.Main[0][0].JSON["n"])

	code, _, errOut = in.run(t, "execute", "--id", "nope")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, errOut, `no workflow with id "nope"`)
}

// TestHelpAndVersion: --help lists the commands and every setting with its default.
func TestHelpAndVersion(t *testing.T) {
	var out bytes.Buffer
	p := Program{Name: "scheduler", Version: "1.2.3", Summary: "fires schedules"}
	require.Equal(t, 0, Main(p, []string{"--version"}, &out, &out))
	require.Equal(t, "flowmill scheduler 1.2.3\n", out.String())
	out.Reset()
	require.Equal(t, 0, Main(p, []string{"-h"}, &out, &out))
	for _, want := range []string{"import:workflow", "export:credentials", "update:workflow", "FLOWMILL_HEALTH_PORT", "--worker-concurrency", "America/New_York"} {
		require.Contains(t, out.String(), want)
	}
	require.NotContains(t, out.String(), "execute", "execute is bin/worker's")
	out.Reset()
	require.Equal(t, 0, Main(p, []string{"import:workflow", "--help"}, &out, &out))
	require.Contains(t, out.String(), "-separate")
	require.Equal(t, ExitUsage, Main(p, []string{"import:workflow", "--nope"}, &out, &out))
}
