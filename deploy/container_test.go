// Package deploy holds what runs Flowmill elsewhere: the Kubernetes manifests
// (deploy/kubernetes, validated by deploy/validate) and the container image check. Its test
// checks the Dockerfile and .dockerignore without Docker: the image must build the web app and
// Swagger UI itself, never take a build output of the host, and run as a non-root user with a
// data volume and a health check. `make image-check` builds and probes the real image.
package deploy

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// TestDockerignoreKeepsBuildOutputsOut: every build output `make` writes (the binaries, npm
// folders, the built web app, Swagger UI's copied files) is ignored, so the image is the same
// whichever machine builds it.
func TestDockerignoreKeepsBuildOutputsOut(t *testing.T) {
	var ignored []string
	for _, line := range strings.Split(read(t, "../.dockerignore"), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			ignored = append(ignored, line)
		}
	}
	for _, out := range []string{"bin", "**/node_modules", "webapp/dist", "api/swaggerui/dist", ".git"} {
		require.Contains(t, ignored, out, ".dockerignore must leave out %s", out)
	}
}

// TestDockerfileBuildsEverythingItself: the web app and Swagger UI's files come from build
// stages (the same Swagger UI files as the Makefile copies), and the runtime stage runs as a
// non-root user with the data folder as a volume and a health check.
func TestDockerfileBuildsEverythingItself(t *testing.T) {
	df := read(t, "../Dockerfile")
	require.Contains(t, df, "RUN npm run build")
	require.Contains(t, df, "COPY --from=web /src/webapp/dist ./webapp/dist")
	require.Contains(t, df, "COPY --from=swagger /src/api/swaggerui/dist ./api/swaggerui/dist")

	makeList := regexp.MustCompile(`swagger-ui-dist/\{([^}]+)\}`).FindStringSubmatch(read(t, "../Makefile"))
	require.NotNil(t, makeList, "the Makefile's list of Swagger UI files")
	for _, f := range strings.Split(makeList[1], ",") {
		require.Contains(t, df, "node_modules/swagger-ui-dist/"+f, "the image copies %s as make does", f)
	}

	stages := strings.Split(df, "\nFROM ")
	final := stages[len(stages)-1]
	user := regexp.MustCompile(`(?m)^USER (\S+)`).FindStringSubmatch(final)
	require.NotNil(t, user, "the runtime stage sets USER")
	require.False(t, slices.Contains([]string{"root", "0", "0:0"}, user[1]), "USER %s", user[1])
	require.Regexp(t, `(?m)^VOLUME \["/home/flowmill/.flowmill"\]`, final)
	require.Contains(t, final, "FLOWMILL_DATA_DIR=/home/flowmill/.flowmill")
	require.Regexp(t, `(?m)^HEALTHCHECK .*\n.*/healthz`, final)
}
