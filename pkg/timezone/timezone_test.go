package timezone_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/timezone"
)

func TestNamesLoad(t *testing.T) {
	t.Parallel()
	names := timezone.Names()
	require.Contains(t, names, "US/Eastern")
	require.Contains(t, names, "UTC")
	require.IsNonDecreasing(t, names)
	for _, n := range names {
		_, err := time.LoadLocation(n)
		require.NoError(t, err, n)
	}
}

func TestPlacesLeaveOutAliases(t *testing.T) {
	t.Parallel()
	places := timezone.Places()
	require.Contains(t, places, "UTC")
	require.Contains(t, places, "America/New_York")
	require.NotContains(t, places, "US/Eastern")
	require.NotContains(t, places, "EST5EDT")
	require.Subset(t, timezone.Names(), places)
}
