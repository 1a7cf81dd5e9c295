package trigger

import "time"

// NextTick is the earliest time a loaded trigger fires (Now plus an hour when that is later):
// tests with a fake clock move it there, as the scheduler's own timer would wake.
func (s *Firer) NextTick() time.Time { return s.nextTick() }

// Wake makes the scheduler look at its clock now instead of at its next timer.
func (s *Firer) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Loaded reports whether the scheduler has read workflow id at its current version (false once
// it dropped an inactive one).
func (s *Firer) Loaded(id, versionID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.versions[id] == versionID
}
