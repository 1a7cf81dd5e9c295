// Package localfiletrigger is the Local File Trigger node (version 1): it starts the workflow
// when a file or folder inside the file fence (FLOWMILL_FILES_DIR) is added, changed or
// deleted. n8n holds a file watcher in its one process; here the node is a poll trigger the
// scheduler runs every minute on one replica per tick (see pkg/trigger), which scans the
// watched path and compares it with the listing the previous scan left in the node's static
// data. Each change found starts its own execution with one {event, path} item, as n8n's
// watcher emits one per event. The node is off unless FLOWMILL_NODES_ENABLE names it.
package localfiletrigger

import (
	"context"
	_ "embed"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindPoll, execute)
	t.PollEach = true
	return t
}

// MaxEntries bounds the files and folders one watch lists; the listing lives in the workflow's
// static data, so a watch over a huge tree fails with advice instead of bloating every save.
const MaxEntries = 10000

// writeSettle is how long a file's size and modification time must stay unchanged before
// Await Write Finish reports it (chokidar's default stability threshold).
const writeSettle = 2 * time.Second

// Static data keys: the watch the listing belongs to, and the listing itself (relative path
// → "d" for a folder, "f:<size>:<mtime ns>" for a file).
const (
	keyWatch   = "watch"
	keyListing = "listing"
)

type options struct {
	awaitWrite, follow, ignoreInitial bool
	ignored                           string
	depth                             int
}

func readOptions(ex *nodes.Execution) (options, error) {
	o := options{follow: true, ignoreInitial: true, depth: -1}
	m, err := ex.ParamMap("options", 0)
	if err != nil {
		return o, err
	}
	if v, ok := m["awaitWriteFinish"].(bool); ok {
		o.awaitWrite = v
	}
	if v, ok := m["followSymlinks"].(bool); ok {
		o.follow = v
	}
	if v, ok := m["ignoreInitial"].(bool); ok {
		o.ignoreInitial = v
	}
	o.ignored, _ = m["ignored"].(string)
	switch d := m["depth"].(type) {
	case float64:
		o.depth = int(d)
	case int:
		o.depth = d
	case string:
		if n, err := strconv.Atoi(d); err == nil {
			o.depth = n
		}
	}
	return o, nil
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	triggerOn, err := ex.ParamString("triggerOn", 0)
	if err != nil {
		return nil, err
	}
	path, err := ex.ParamString("path", 0)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(path) == "" {
		return nil, nodes.Errorf(-1, "The path to watch is empty.")
	}
	events := []string{"change"}
	if triggerOn != "file" {
		list, err := ex.Param("events", 0)
		if err != nil {
			return nil, err
		}
		events = nil
		if l, ok := list.([]any); ok {
			for _, e := range l {
				if s, ok := e.(string); ok {
					events = append(events, s)
				}
			}
		}
	}
	o, err := readOptions(ex)
	if err != nil {
		return nil, err
	}
	resolved, err := ex.ResolveFile(path)
	if err != nil {
		return nil, nodes.Errorf(-1, "%v", err)
	}
	s := &scanner{ex: ex, opts: o, shown: path, listing: map[string]string{}, seen: map[string]bool{}}
	if triggerOn == "file" {
		err = s.scanFile(resolved)
	} else {
		err = s.scanFolder(ctx, resolved)
	}
	if err != nil {
		return nil, err
	}

	static := ex.StaticData()
	watch := triggerOn + "\x00" + resolved + "\x00" + o.ignored + "\x00" + strconv.Itoa(o.depth) + "\x00" + strconv.FormatBool(o.follow)
	prev, known := listingOf(static[keyListing])
	if static[keyWatch] != watch {
		prev, known = map[string]string{}, false
	}
	changes := diff(prev, s.listing, known || o.ignoreInitial, known)
	if o.awaitWrite {
		changes = s.settle(changes, prev)
	}
	static[keyWatch] = watch
	static[keyListing] = toAny(s.listing)

	var items []workflow.Item
	for _, c := range changes {
		if !slices.Contains(events, c.event) {
			continue
		}
		p := path
		if c.rel != "" {
			p = filepath.Join(path, c.rel)
		}
		items = append(items, workflow.Item{JSON: workflow.ObjectOf("event", c.event, "path", p)})
	}
	if len(items) == 0 {
		return nil, nil
	}
	return [][]workflow.Item{items}, nil
}

// scanner lists the watched tree: relative path → signature.
type scanner struct {
	ex      *nodes.Execution
	opts    options
	shown   string
	listing map[string]string
	// seen are the real folders walked, so linked folders cannot loop.
	seen map[string]bool
	// fresh are the files written too recently for Await Write Finish.
	fresh map[string]bool
}

func (s *scanner) scanFile(resolved string) error {
	info, err := os.Stat(resolved)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return nodes.Errorf(-1, "%v", err)
	}
	s.record("", info)
	return nil
}

func (s *scanner) scanFolder(ctx context.Context, resolved string) error {
	info, err := os.Stat(resolved)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return nodes.Errorf(-1, "%v", err)
	}
	if !info.IsDir() {
		return nodes.Errorf(-1, "The path %q is not a folder.", s.shown)
	}
	return s.walk(ctx, resolved, "", 0)
}

func (s *scanner) walk(ctx context.Context, dir, rel string, level int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		if s.seen[real] {
			return nil
		}
		s.seen[real] = true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		// A folder removed or made unreadable during the scan lists as empty.
		return nil
	}
	for _, e := range entries {
		childRel := filepath.Join(rel, e.Name())
		if s.ignored(filepath.Join(s.shown, childRel)) {
			continue
		}
		full := filepath.Join(dir, e.Name())
		info, err := os.Lstat(full)
		if err != nil {
			continue
		}
		if info.Mode()&fs.ModeSymlink != 0 && s.opts.follow {
			// Only links whose target the file fence allows are followed.
			target, err := s.ex.ResolveFile(full)
			if err != nil {
				continue
			}
			if info, err = os.Stat(target); err != nil {
				continue
			}
			full = target
		}
		if len(s.listing) >= MaxEntries {
			return nodes.Errorf(-1, "The folder %q holds more than %d files and folders to watch; narrow it with Max Folder Depth or Ignore.", s.shown, MaxEntries)
		}
		s.record(childRel, info)
		if info.IsDir() && (s.opts.depth < 0 || level < s.opts.depth) {
			if err := s.walk(ctx, full, childRel, level+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *scanner) record(rel string, info fs.FileInfo) {
	if info.IsDir() {
		s.listing[rel] = "d"
		return
	}
	s.listing[rel] = "f:" + strconv.FormatInt(info.Size(), 10) + ":" + strconv.FormatInt(info.ModTime().UnixNano(), 10)
	// A modification time far in the future (a skewed clock) must not hold a file back forever.
	if age := s.ex.Now().Sub(info.ModTime()); s.opts.awaitWrite && age < writeSettle && age > -writeSettle {
		if s.fresh == nil {
			s.fresh = map[string]bool{}
		}
		s.fresh[rel] = true
	}
}

// ignored matches the Ignore pattern against the whole path, as anymatch does; a pattern
// naming a folder ignores what it holds too.
func (s *scanner) ignored(p string) bool {
	pat := strings.TrimSpace(s.opts.ignored)
	if pat == "" {
		return false
	}
	p = filepath.ToSlash(p)
	for _, cand := range []string{p, strings.TrimPrefix(p, "/"), strings.TrimPrefix(p, "./")} {
		for _, q := range []string{pat, strings.TrimSuffix(pat, "/") + "/**"} {
			if ok, _ := doublestar.Match(q, cand); ok {
				return true
			}
		}
	}
	return false
}

// settle holds back the adds and changes of files still being written: their entry keeps its
// previous state, so the next scan reports them once they are quiet.
func (s *scanner) settle(changes []change, prev map[string]string) []change {
	out := changes[:0]
	for _, c := range changes {
		if (c.event == "add" || c.event == "change") && s.fresh[c.rel] {
			if old, ok := prev[c.rel]; ok {
				s.listing[c.rel] = old
			} else {
				delete(s.listing, c.rel)
			}
			continue
		}
		out = append(out, c)
	}
	return out
}

type change struct{ event, rel string }

// diff compares two listings: removals first (deepest first, so a folder's files go before
// it), then additions and changes in path order. quiet with no earlier listing reports
// nothing for what already exists (Ignore Existing Files/Folders).
func diff(prev, now map[string]string, quiet, known bool) []change {
	if !known && quiet {
		return nil
	}
	var gone, came []change
	for rel, old := range prev {
		cur, ok := now[rel]
		switch {
		case !ok:
			gone = append(gone, change{removal(old), rel})
		case (old == "d") != (cur == "d"):
			gone = append(gone, change{removal(old), rel})
			came = append(came, change{addition(cur), rel})
		case old != cur:
			came = append(came, change{"change", rel})
		}
	}
	for rel, cur := range now {
		if _, ok := prev[rel]; !ok {
			came = append(came, change{addition(cur), rel})
		}
	}
	slices.SortFunc(gone, func(a, b change) int { return strings.Compare(b.rel, a.rel) })
	slices.SortFunc(came, func(a, b change) int { return strings.Compare(a.rel, b.rel) })
	return append(gone, came...)
}

func removal(sig string) string {
	if sig == "d" {
		return "unlinkDir"
	}
	return "unlink"
}

func addition(sig string) string {
	if sig == "d" {
		return "addDir"
	}
	return "add"
}

func listingOf(v any) (map[string]string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return map[string]string{}, false
	}
	out := make(map[string]string, len(m))
	for k, s := range m {
		if str, ok := s.(string); ok {
			out[k] = str
		}
	}
	return out, true
}

func toAny(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
