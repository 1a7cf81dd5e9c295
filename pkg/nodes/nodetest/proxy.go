package nodetest

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy forwards TCP connections from a port of the loopback to target, so that a test can cut
// a node's connection to a server: cut closes every connection forwarded so far (new ones are
// still accepted). It returns the port.
func Proxy(t testing.TB, target string) (port int, cut func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("proxy: %v", err)
	}
	var mu sync.Mutex
	var open []net.Conn
	track := func(c net.Conn) {
		mu.Lock()
		open = append(open, c)
		mu.Unlock()
	}
	cut = func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range open {
			_ = c.Close()
		}
		open = nil
	}
	t.Cleanup(func() { _ = ln.Close(); cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				_ = c.Close()
				continue
			}
			track(c)
			track(up)
			go func() { _, _ = io.Copy(up, c); _ = up.Close() }()
			go func() { _, _ = io.Copy(c, up); _ = c.Close() }()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port, cut
}
