package faultproxy

import (
	"bufio"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// echoServer answers every line with the same line and counts the connections it accepted.
func echoServer(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = ln.Close() })
	var accepted atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if _, err := c.Write([]byte(line)); err != nil {
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().String(), &accepted
}

func roundTrip(c net.Conn, r *bufio.Reader, msg string) (string, error) {
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Write([]byte(msg + "\n")); err != nil {
		return "", err
	}
	return r.ReadString('\n')
}

func dial(t *testing.T, p *Proxy) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", p.Addr())
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c, bufio.NewReader(c)
}

func TestCutRefusesAndRestoreForwardsAgain(t *testing.T) {
	target, _ := echoServer(t)
	p, err := Listen(target)
	require.NoError(t, err)
	defer p.Close()

	c, r := dial(t, p)
	got, err := roundTrip(c, r, "before")
	require.NoError(t, err)
	require.Equal(t, "before\n", got)

	p.Cut(Refuse)
	_, err = roundTrip(c, r, "during")
	require.Error(t, err, "a connection open at the cut is closed")
	// A refused connection fails at connect or at its first exchange, whichever the reset meets.
	if c2, err := net.Dial("tcp", p.Addr()); err == nil {
		_, err = roundTrip(c2, bufio.NewReader(c2), "during")
		_ = c2.Close()
		require.Error(t, err, "a new connection during the cut is refused")
	}

	p.Restore()
	c3, r3 := dial(t, p)
	got, err = roundTrip(c3, r3, "after")
	require.NoError(t, err)
	require.Equal(t, "after\n", got)
	cuts, dropped := p.Stats()
	require.Equal(t, 1, cuts)
	require.Equal(t, 2, dropped, "the open connection and the refused one")
}

func TestBlackholeHoldsNewConnectionsUntilRestore(t *testing.T) {
	target, accepted := echoServer(t)
	p, err := Listen(target)
	require.NoError(t, err)
	defer p.Close()

	p.Cut(Blackhole)
	c, r := dial(t, p)
	_, err = c.Write([]byte("held\n"))
	require.NoError(t, err)
	require.Eventually(t, func() bool { _, d := p.Stats(); return d == 1 }, 10*time.Second, 5*time.Millisecond)
	require.Zero(t, accepted.Load(), "nothing reaches the server during the cut")

	p.Restore()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	got, err := r.ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "held\n", got, "the held connection carries on after the restore")
}

func TestCloseEndsEveryConnection(t *testing.T) {
	target, _ := echoServer(t)
	p, err := Listen(target)
	require.NoError(t, err)
	c, r := dial(t, p)
	_, err = roundTrip(c, r, "x")
	require.NoError(t, err)
	p.Cut(Blackhole)
	held, _ := dial(t, p)
	require.Eventually(t, func() bool { _, d := p.Stats(); return d == 2 }, 10*time.Second, 5*time.Millisecond)
	require.NoError(t, p.Close())
	require.NoError(t, p.Close(), "Close is safe twice")
	_ = held.SetDeadline(time.Now().Add(10 * time.Second))
	_, err = held.Read(make([]byte, 1))
	require.Error(t, err)
	_, err = net.Dial("tcp", p.Addr())
	require.Error(t, err, "the listener is gone")
}
