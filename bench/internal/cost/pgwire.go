package cost

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"strings"
	"sync"
)

// PGCounter is a TCP proxy in front of Postgres that reads the frontend side of the wire
// protocol and counts what the clients send: statements run (simple Query and extended
// Execute messages, by statement text) and round trips (Query and Sync messages, each of which
// waits for the server's ReadyForQuery). Postgres's own pg_stat_statements needs a server
// restart to load; this needs nothing of the shared server.
type PGCounter struct {
	ln     net.Listener
	target string

	mu         sync.Mutex
	statements map[string]int64 // statement text (shortened) → executions
	roundTrips int64
	wg         sync.WaitGroup
}

// PGCounts is a reading of a PGCounter.
type PGCounts struct {
	Statements int64
	RoundTrips int64
	ByText     map[string]int64
}

// ListenPG starts a counting proxy on 127.0.0.1 (a free port) to target (host:port).
func ListenPG(target string) (*PGCounter, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &PGCounter{ln: ln, target: target, statements: map[string]int64{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the proxy's host:port.
func (p *PGCounter) Addr() string { return p.ln.Addr().String() }

// Close stops accepting; forwarded connections end when their clients close them.
func (p *PGCounter) Close() { _ = p.ln.Close(); p.wg.Wait() }

// Read returns the counts so far.
func (p *PGCounter) Read() PGCounts {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := PGCounts{RoundTrips: p.roundTrips, ByText: make(map[string]int64, len(p.statements))}
	for k, v := range p.statements {
		c.ByText[k] = v
		c.Statements += v
	}
	return c
}

func (p *PGCounter) accept() {
	defer p.wg.Done()
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = client.Close()
			continue
		}
		go func() {
			_, _ = io.Copy(client, server)
			_ = client.Close()
		}()
		go func() {
			p.frontend(client, server)
			_ = server.Close()
		}()
	}
}

// frontend copies the client's messages to the server, counting them on the way.
func (p *PGCounter) frontend(client, server net.Conn) {
	in := bufio.NewReaderSize(client, 64<<10)
	out := bufio.NewWriterSize(server, 64<<10)
	var hdr [5]byte
	// Untyped startup messages first: an SSL or GSS encryption request, then the startup.
	for {
		if _, err := io.ReadFull(in, hdr[:4]); err != nil {
			return
		}
		n := int(binary.BigEndian.Uint32(hdr[:4]))
		body := make([]byte, max(n-4, 0))
		if _, err := io.ReadFull(in, body); err != nil {
			return
		}
		_, _ = out.Write(hdr[:4])
		_, _ = out.Write(body)
		if out.Flush() != nil {
			return
		}
		if len(body) < 4 {
			return
		}
		if code := binary.BigEndian.Uint32(body[:4]); code != 80877103 && code != 80877104 {
			break
		}
	}
	prepared := map[string]string{} // statement name → text
	portals := map[string]string{}  // portal name → statement text
	for {
		if _, err := io.ReadFull(in, hdr[:]); err != nil {
			return
		}
		n := int(binary.BigEndian.Uint32(hdr[1:]))
		body := make([]byte, max(n-4, 0))
		if _, err := io.ReadFull(in, body); err != nil {
			return
		}
		switch hdr[0] {
		case 'Q':
			p.count(cstring(body, 0), true)
		case 'P':
			name := cstring(body, 0)
			prepared[name] = cstring(body, len(name)+1)
		case 'B':
			portal := cstring(body, 0)
			portals[portal] = prepared[cstring(body, len(portal)+1)]
		case 'E':
			p.count(portals[cstring(body, 0)], false)
		case 'S':
			p.mu.Lock()
			p.roundTrips++
			p.mu.Unlock()
		}
		_, _ = out.Write(hdr[:])
		_, _ = out.Write(body)
		// Flush when the client waits for an answer or has nothing more buffered.
		if in.Buffered() == 0 {
			if out.Flush() != nil {
				return
			}
		}
	}
}

func (p *PGCounter) count(text string, roundTrip bool) {
	text = strings.Join(strings.Fields(text), " ")
	if len(text) > 110 {
		text = text[:110] + "…"
	}
	p.mu.Lock()
	p.statements[text]++
	if roundTrip {
		p.roundTrips++
	}
	p.mu.Unlock()
}

// cstring reads the NUL-terminated string at off.
func cstring(b []byte, off int) string {
	if off >= len(b) {
		return ""
	}
	for i := off; i < len(b); i++ {
		if b[i] == 0 {
			return string(b[off:i])
		}
	}
	return string(b[off:])
}
