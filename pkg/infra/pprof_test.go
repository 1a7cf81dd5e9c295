package infra_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/infra/infratest"
)

// TestProfilesServedOnlyWhenAsked: no profile listener by default; with FLOWMILL_PPROF_ADDR the
// process serves /debug/pprof/ there, a CPU profile included, and stops with Close.
func TestProfilesServedOnlyWhenAsked(t *testing.T) {
	require.Empty(t, infratest.Open(t, nil).ProfileAddr())

	in := infratest.Open(t, map[string]string{"FLOWMILL_PPROF_ADDR": "127.0.0.1:0"})
	addr := in.ProfileAddr()
	require.NotEmpty(t, addr)
	status, body := get(t, "http://"+addr+"/debug/pprof/")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, "goroutine")
	status, body = get(t, "http://"+addr+"/debug/pprof/profile?seconds=1")
	require.Equal(t, http.StatusOK, status)
	require.NotEmpty(t, body)

	in.Close()
	_, err := http.Get("http://" + addr + "/debug/pprof/")
	require.Error(t, err, "the listener outlived Close")
}
