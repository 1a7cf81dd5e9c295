package expr

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ErrMemory is matched (errors.Is) by an *Error raised because an evaluation or a script
// used more memory than Options.MemoryLimit allows.
var ErrMemory = errors.New("memory limit exceeded")

// watchInterval is how often the watchdog samples the heap while evaluations or scripts run.
// A runaway loop allocates at most a few hundred MiB per second in goja, so it overshoots the
// budget by tens of MiB at most before it is stopped.
const watchInterval = 10 * time.Millisecond

// forcedGCInterval spaces the collections the watchdog forces to confirm a suspicion, so a
// large process running scripts is not collected more than twice a second for it.
const forcedGCInterval = 500 * time.Millisecond

// watchdog stops runtimes whose evaluation has let the Go heap grow by more than the budget
// since it began. Go cannot attribute allocations to a goroutine, so the growth measured is
// the process's: when several scripts run at once, each that began before the growth is
// stopped. Single native calls that would allocate beyond the budget at once are refused
// before they run by the built-in guards (guard.go); the watchdog catches gradual growth.
//
// The sampling goroutine runs only while evaluations are in progress: the first one starts
// it, and it ends at a tick that finds none.
type watchdog struct {
	budget uint64

	active  atomic.Int64 // evaluations in progress
	running atomic.Bool  // the sampling goroutine runs
	// heap is the heap's objects at the last sample, the start of evaluations beginning now.
	// It counts garbage too, so a run's growth (live heap after a collection minus its start)
	// is never overstated.
	heap   atomic.Uint64
	lastGC time.Time // the watchdog's last forced collection; used by its goroutine only

	mu  sync.Mutex
	vms map[*vm]struct{} // every runtime of the Evaluator that is not discarded
}

func newWatchdog(budget uint64) *watchdog {
	return &watchdog{budget: budget, vms: make(map[*vm]struct{})}
}

// heapSampleNames are the runtime/metrics read by the watchdog: the heap marked live by the last
// GC, and the heap's objects now (live and not yet swept).
var heapSampleNames = [...]string{"/gc/heap/live:bytes", "/memory/classes/heap/objects:bytes"}

func readHeap() (live, objects uint64) {
	s := []metrics.Sample{{Name: heapSampleNames[0]}, {Name: heapSampleNames[1]}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

func (w *watchdog) add(v *vm) {
	w.mu.Lock()
	w.vms[v] = struct{}{}
	w.mu.Unlock()
}

func (w *watchdog) remove(v *vm) {
	w.mu.Lock()
	delete(w.vms, v)
	w.mu.Unlock()
}

// beginWatch marks the start of an evaluation on v, starting the sampling goroutine if none runs.
func (v *vm) beginWatch() {
	w := v.ev.watch
	if w == nil {
		return
	}
	w.active.Add(1)
	if !w.running.Load() && w.running.CompareAndSwap(false, true) {
		_, objects := readHeap()
		w.heap.Store(objects)
		go w.loop()
	}
	v.memMu.Lock()
	v.memStart = w.heap.Load()
	v.watched = true
	v.memMu.Unlock()
}

// endWatch marks the end of the evaluation and returns the error of a stop for memory (by the
// watchdog or a guard), or nil; after a stop the runtime must be discarded. A guard's refusal
// can surface as a JavaScript exception before the interrupt takes effect, so the stop's
// error replaces whatever the run returned.
func (v *vm) endWatch() *Error {
	w := v.ev.watch
	if w == nil {
		return nil
	}
	v.memMu.Lock()
	stop, wasWatched := v.memStop, v.watched
	v.watched, v.memStop = false, nil
	v.memMu.Unlock()
	if wasWatched {
		w.active.Add(-1)
	}
	if stop == nil {
		return nil
	}
	return &Error{Message: stop.message(), cause: stop.cause}
}

func (w *watchdog) loop() {
	t := time.NewTicker(watchInterval)
	defer t.Stop()
	for range t.C {
		if w.active.Load() == 0 {
			w.running.Store(false)
			// An evaluation that began between the check and the store saw running still
			// true and relies on this goroutine; carry on for it unless another took over.
			if w.active.Load() == 0 || !w.running.CompareAndSwap(false, true) {
				return
			}
		}
		w.check()
	}
}

// check samples the heap and interrupts the evaluations that grew the live heap past the
// budget. The live heap is only known after a collection; when the heap's objects (garbage
// included) suggest a run is over budget, the watchdog forces one, at most every
// forcedGCInterval, so garbage a busy script leaves behind does not stop it.
func (w *watchdog) check() {
	live, objects := readHeap()
	w.heap.Store(objects)
	oldest := w.oldestStart()
	if objects < oldest+w.budget {
		return
	}
	if live < oldest+w.budget && time.Since(w.lastGC) >= forcedGCInterval {
		runtime.GC()
		w.lastGC = time.Now()
		live, objects = readHeap()
		w.heap.Store(objects)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for v := range w.vms {
		v.memMu.Lock()
		if v.watched && v.memStop == nil && live > v.memStart && live-v.memStart > w.budget {
			v.memStop = &interrupt{cause: ErrMemory, what: v.what, bytes: w.budget}
			v.rt.Interrupt(v.memStop)
		}
		v.memMu.Unlock()
	}
}

// oldestStart is the lowest start among the evaluations in progress (the largest growth).
func (w *watchdog) oldestStart() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	lowest := ^uint64(0) - w.budget
	for v := range w.vms {
		v.memMu.Lock()
		if v.watched && v.memStart < lowest {
			lowest = v.memStart
		}
		v.memMu.Unlock()
	}
	return lowest
}

// memoryMessage is the message of an evaluation stopped for memory: "Script used more than
// 256 MiB of memory".
func memoryMessage(what string, budget uint64) string {
	return fmt.Sprintf("%s used more than %s of memory", capitalize(what), formatBytes(budget))
}

func formatBytes(n uint64) string {
	const mib = 1 << 20
	if n%mib == 0 || n >= 10*mib {
		return fmt.Sprintf("%d MiB", (n+mib/2)/mib)
	}
	return fmt.Sprintf("%d KiB", (n+512)/1024)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
