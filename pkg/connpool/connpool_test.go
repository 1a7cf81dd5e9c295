package connpool

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type conn struct {
	id     int
	closed atomic.Bool
}

func (c *conn) Close() error { c.closed.Store(true); return nil }

func TestSharesOneOpenPerKey(t *testing.T) {
	c := New[*conn](Options{})
	var opens atomic.Int32
	gate := make(chan struct{})
	open := func() (*conn, error) {
		opens.Add(1)
		<-gate
		return &conn{id: int(opens.Load())}, nil
	}
	var wg sync.WaitGroup
	got := make([]*conn, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, release, err := c.Get("a", open)
			require.NoError(t, err)
			defer release()
			got[i] = v
		}()
	}
	// Every caller is waiting on the one open before it returns.
	require.Eventually(t, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.entries["a"] != nil && c.entries["a"].refs == len(got)
	}, 5*time.Second, time.Millisecond)
	close(gate)
	wg.Wait()
	require.EqualValues(t, 1, opens.Load())
	for _, v := range got {
		require.Same(t, got[0], v)
	}
	other, _, err := c.Get("b", open)
	require.NoError(t, err)
	require.NotSame(t, got[0], other)
}

func TestFailedOpenIsRetried(t *testing.T) {
	c := New[*conn](Options{})
	_, _, err := c.Get("a", func() (*conn, error) { return nil, errors.New("refused") })
	require.EqualError(t, err, "refused")
	require.Equal(t, 0, c.Len())
	v, _, err := c.Get("a", func() (*conn, error) { return &conn{id: 2}, nil })
	require.NoError(t, err)
	require.Equal(t, 2, v.id)
}

func TestIdleAndFullEntriesAreClosed(t *testing.T) {
	now := time.Unix(0, 0)
	c := New[*conn](Options{Idle: time.Minute, MaxEntries: 2})
	c.now = func() time.Time { return now }
	get := func(key string, id int) (*conn, func()) {
		v, release, err := c.Get(key, func() (*conn, error) { return &conn{id: id}, nil })
		require.NoError(t, err)
		return v, release
	}
	a, release := get("a", 1)
	release()
	now = now.Add(2 * time.Minute)
	b, releaseB := get("b", 2)
	require.Eventually(t, a.closed.Load, time.Second, time.Millisecond)
	now = now.Add(time.Second)
	_, release = get("c", 3)
	release()
	now = now.Add(time.Second)
	// b is the least recently used and goes, but stays open while it is held.
	_, release = get("d", 4)
	release()
	require.Equal(t, 2, c.Len())
	require.False(t, b.closed.Load())
	releaseB()
	require.True(t, b.closed.Load())
	c.Close()
	require.Equal(t, 0, c.Len())
}

func TestKeyHidesSettings(t *testing.T) {
	k := Key(map[string]any{"password": "s3cret", "host": "db"})
	require.Len(t, k, 64)
	require.NotContains(t, k, "s3cret")
	require.Equal(t, k, Key(map[string]any{"host": "db", "password": "s3cret"}))
	require.NotEqual(t, k, Key(map[string]any{"host": "db2", "password": "s3cret"}))
}
