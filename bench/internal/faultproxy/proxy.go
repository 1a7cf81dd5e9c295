// Package faultproxy is a TCP proxy a load scenario puts between Flowmill's processes and a
// server they depend on (Postgres, Redis), so that it can cut the network path and restore it.
package faultproxy

import (
	"errors"
	"io"
	"net"
	"sync"
	"time"
)

// Mode is what a cut path does with new connections.
type Mode int

const (
	// Refuse accepts new connections and closes them at once (reset), as a stopped server would.
	Refuse Mode = iota
	// Blackhole accepts new connections and passes nothing through until Restore, as a network
	// that drops packets would; at Restore the held connections are joined to the server, so a
	// client that is still waiting carries on and one that gave up sees its own close.
	Blackhole
)

// String names the mode as the -cut-mode flag spells it.
func (m Mode) String() string {
	if m == Blackhole {
		return "blackhole"
	}
	return "refuse"
}

// ParseMode reads "refuse" or "blackhole".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "refuse":
		return Refuse, nil
	case "blackhole":
		return Blackhole, nil
	}
	return 0, errors.New(`cut mode must be "refuse" or "blackhole"`)
}

// dialTimeout bounds the connection to the real server.
const dialTimeout = 5 * time.Second

// Proxy forwards every connection made to its address (127.0.0.1, a free port) to a target.
type Proxy struct {
	ln     net.Listener
	target string

	mu     sync.Mutex
	live   map[net.Conn]net.Conn // client end → server end of every forwarded pair
	held   []net.Conn            // client ends accepted during a black-hole cut
	cut    bool
	mode   Mode
	closed bool
	// Cuts counts Cut calls; Dropped the connections closed by them or refused during them.
	cuts, dropped int
	wg            sync.WaitGroup
}

// Listen starts a proxy on 127.0.0.1 (a free port) to target (host:port).
func Listen(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{ln: ln, target: target, live: map[net.Conn]net.Conn{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Cut closes every forwarded connection (with a reset) and, until Restore, refuses or holds
// new ones according to mode.
func (p *Proxy) Cut(mode Mode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut, p.mode = true, mode
	p.cuts++
	for client, server := range p.live {
		reset(client)
		reset(server)
		delete(p.live, client)
		p.dropped++
	}
}

// Restore lets connections through again; connections held by a black-hole cut are joined to
// the server now.
func (p *Proxy) Restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = false
	if p.closed {
		return
	}
	for _, c := range p.held {
		p.wg.Add(1)
		go p.forward(c)
	}
	p.held = nil
}

// Stats reports how many cuts there were and how many connections they closed or refused.
func (p *Proxy) Stats() (cuts, dropped int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cuts, p.dropped
}

// Close stops listening, closes every connection and waits for the proxy's goroutines. Safe to
// call twice.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	for client, server := range p.live {
		_ = client.Close()
		_ = server.Close()
	}
	for _, c := range p.held {
		_ = c.Close()
	}
	p.held = nil
	p.mu.Unlock()
	err := p.ln.Close()
	p.wg.Wait()
	return err
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return // closed
		}
		p.mu.Lock()
		switch {
		case p.closed:
			_ = c.Close()
		case p.cut && p.mode == Refuse:
			reset(c)
			p.dropped++
		case p.cut:
			p.held = append(p.held, c)
			p.dropped++
		default:
			p.wg.Add(1)
			go p.forward(c)
		}
		p.mu.Unlock()
	}
}

// forward dials the target for client and copies both ways until either side closes.
func (p *Proxy) forward(client net.Conn) {
	defer p.wg.Done()
	server, err := net.DialTimeout("tcp", p.target, dialTimeout)
	if err != nil {
		reset(client)
		return
	}
	p.mu.Lock()
	if p.closed || p.cut {
		// Cut while dialing: this connection belongs to the cut too.
		p.mu.Unlock()
		reset(client)
		reset(server)
		return
	}
	p.live[client] = server
	p.mu.Unlock()

	var once sync.Once
	done := func() {
		once.Do(func() {
			p.mu.Lock()
			delete(p.live, client)
			p.mu.Unlock()
			_ = client.Close()
			_ = server.Close()
		})
	}
	var pipes sync.WaitGroup
	pipes.Add(2)
	go func() { defer pipes.Done(); _, _ = io.Copy(server, client); done() }()
	go func() { defer pipes.Done(); _, _ = io.Copy(client, server); done() }()
	pipes.Wait()
}

// reset closes c so that its peer sees a reset rather than an orderly end of stream.
func reset(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = c.Close()
}
