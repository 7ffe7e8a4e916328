package eval

import (
	goruntime "runtime"

	"github.com/obsidian-go/obsidian/ir"
)

// Waiting for another block. A loop that reads memory with an atomic Load
// (a wait loop) may wait for a value that another block, running on
// another worker, writes with an atomic. Such a kernel synchronises its
// blocks itself, so its blocks run in parallel even when it has atomics
// whose effect depends on the order (see machine.inOrder): a block that
// takes its tile from an atomic counter waits only for blocks that took
// theirs earlier, which have started on other workers and make progress.
//
// A wait that nothing can end is reported rather than run forever: a
// worker whose wait loop has run stallSteps iterations while no atomic
// changed global memory is stalled, and when every worker that runs a
// block is stalled, no block can change what they wait for (the evaluator
// runs as many blocks at once as it has workers, so a block that waits for
// one that has not started waits for ever here, and may on the GPU). A
// worker counts as stalled only once it has itself run those iterations,
// so that one the system has not scheduled for a while is not taken for
// one that waits for ever.

// stallSteps is how many iterations of a wait loop, with global memory
// unchanged, stall a worker.
const stallSteps = 1 << 16

// yield lets other goroutines run, the block waited for among them, where
// workers outnumber cores. Tests replace it to run another worker's steps
// at that point.
var yield = goruntime.Gosched

// waits reports whether the loop s is a wait loop: its condition or body
// makes an atomic Load.
func waits(s *ir.While) bool {
	found := false
	ir.WalkStmts([]ir.Stmt{s}, func(s ir.Stmt) bool {
		if a, ok := s.(*ir.Atomic); ok && a.Op == ir.AtomicLoad {
			found = true
		}
		return !found
	})
	return found
}

// waitState is a worker's state in a wait loop.
type waitState struct {
	active  bool
	stalled bool
	seen    int64 // the launch's count of changes when last looked at
	steps   int   // iterations since the count last changed
}

// stillWaiting counts stepBatch iterations of the wait loop at pos and
// reports false, after reporting the deadlock, when the wait cannot end.
func (m *machine) stillWaiting(pos ir.Pos) bool {
	r, w := m.run, &m.wait
	now := r.changes.Load()
	switch {
	case !w.active:
		*w = waitState{active: true, seen: now}
		return true
	case now != w.seen:
		m.unstall()
		w.seen, w.steps = now, 0
		return true
	}
	w.steps += stepBatch
	yield()
	if w.steps >= stallSteps && !w.stalled {
		w.stalled = true
		r.stalled.Add(1)
	}
	if !w.stalled || r.stalled.Load() < r.running.Load() {
		return true
	}
	// A block that changed global memory after the count was read, and
	// has ended since, no longer counts as running: its change is seen
	// now (it made the change before it ended), and ends the stall.
	if now := r.changes.Load(); now != w.seen {
		m.unstall()
		w.seen, w.steps = now, 0
		return true
	}
	m.report(true, pos, "deadlock", "loop waits for ever: it reads memory with AtomicLoad, and every running "+
		"block (%d at once in the evaluator) has waited in such a loop for %d iterations while no atomic changed "+
		"global memory (a block waits for one that has not started, or for a value no block writes)",
		r.running.Load(), w.steps)
	return false
}

// unstall ends the worker's stall, if it is stalled.
func (m *machine) unstall() {
	if m.wait.stalled {
		m.wait.stalled = false
		m.run.stalled.Add(-1)
	}
}

// endWait ends the worker's wait loop, if it is in one.
func (m *machine) endWait() {
	m.unstall()
	m.wait.active = false
}

// changedGlobal counts an atomic statement that changed global memory.
func (m *machine) changedGlobal() { m.run.changes.Add(1) }
