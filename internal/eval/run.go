package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	gosync "sync"
	"sync/atomic"

	"github.com/obsidian-go/obsidian/ir"
)

// run is what the workers of a launch share: the blocks to hand out, the
// steps counted, where the launch stops and why it was cancelled.
type run struct {
	ctx    context.Context
	done   <-chan struct{}
	params []paramValue // the scalar parameters, which every block starts with
	phase  int          // the first block of the current phase (see words.go)
	// inOrder says the blocks run one after the other, in order (see
	// machine.inOrder).
	inOrder bool
	next    atomic.Int64 // the next block to hand out
	stop    atomic.Int64 // blocks after this one need not run
	steps   atomic.Int64
	// running counts the workers running a block, stalled those of them
	// stalled in a wait loop, changes the atomics that changed global
	// memory (see wait.go).
	running, stalled atomic.Int32
	changes          atomic.Int64

	mu     gosync.Mutex
	cancel error
}

// paramValue is a scalar parameter in its uniform slot.
type paramValue struct {
	slot int
	bits uint64
}

func newRun(ctx context.Context) *run {
	r := &run{ctx: ctx}
	if ctx != nil {
		r.done = ctx.Done()
	}
	r.stop.Store(math.MaxInt64)
	return r
}

// stopAfter stops the launch after block b: the blocks before it (and b)
// decide what is reported.
func (r *run) stopAfter(b int) {
	for {
		cur := r.stop.Load()
		if int64(b) >= cur || r.stop.CompareAndSwap(cur, int64(b)) {
			return
		}
	}
}

// last returns the last block that needs to run.
func (r *run) last() int { return int(r.stop.Load()) }

// cancelled reports whether the launch's context is done, noting the
// first time where the launch stopped (before or in a block).
func (r *run) cancelled(kernel, where string, block, blocks int) bool {
	if r.done == nil {
		return false
	}
	select {
	case <-r.done:
	default:
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel == nil {
		r.cancel = fmt.Errorf("kernel %s cancelled %s block %d of %d: %w", kernel, where, block, blocks, context.Cause(r.ctx))
	}
	return true
}

// maxChunk is the most blocks a worker takes at once.
const maxChunk = 64

// launch runs the blocks on m.workers workers and returns what they
// found, in the order of the blocks.
func (m *machine) launch() error {
	workers := []*machine{m}
	n := m.workers
	if m.run.inOrder = m.inOrder(); m.run.inOrder {
		n = 1
	}
	for len(workers) < n {
		workers = append(workers, m.worker())
	}
	if len(m.tracked) > 0 {
		for _, w := range workers {
			w.intervals = newIntervalTable(m.globalCells)
			defer w.intervals.release()
		}
	}
	chunk := max(1, min(maxChunk, m.blocks/(len(workers)*maxChunk)))
	for phase := 0; phase < m.blocks; phase += phaseBlocks {
		end := min(m.blocks, phase+phaseBlocks)
		m.run.phase = phase
		m.run.next.Store(int64(phase))
		var wg gosync.WaitGroup
		panics := make([]any, len(workers))
		for i, w := range workers[1:] {
			wg.Go(func() { panics[i+1] = w.safeWork(end, chunk) })
		}
		panics[0] = m.safeWork(end, chunk)
		wg.Wait()
		for _, p := range panics {
			if p != nil {
				panic(p) // for recoverInternal, once no worker runs
			}
		}
		if end == m.blocks || m.run.last() < end || m.run.cancel != nil {
			break
		}
		for _, r := range m.tracked {
			r.shadow.endPhase()
		}
	}
	return m.run.result(workers)
}

// inOrder reports whether the launch's blocks must run one after the other,
// in order, for its result not to depend on the order they run in: when an
// atomic's effect depends on the order (see familyOf), or atomics of two
// families update one region. A kernel that waits for other blocks (see
// wait.go) orders its blocks itself and never runs in order.
func (m *machine) inOrder() bool {
	if m.prog.waits {
		return false
	}
	families := map[*region]atomicFamily{}
	for _, a := range m.prog.globalAtomics {
		if a.family == orderDependent {
			return true
		}
		r := m.mems[a.memory].region
		if f, ok := families[r]; ok && f != a.family {
			return true
		}
		families[r] = a.family
	}
	return false
}

// worker returns a machine for another worker of m's launch: the same
// global memory, its own shared memory.
func (m *machine) worker() *machine {
	w := newMachine(m.prog, m.blocks, m.threads)
	w.run, w.tracked, w.globalCells = m.run, m.tracked, m.globalCells
	w.mems = slices.Clone(m.mems)
	var shared []*memory
	for i, a := range m.prog.arrays {
		if a.Space == ir.Shared || a.Space == ir.Local {
			w.mems[i] = w.allocated(a, i)
			if a.Space == ir.Shared {
				shared = append(shared, w.mems[i])
			}
		}
	}
	if err := w.layoutShared(shared); err != nil {
		panic(err) // m's layout of the same arrays succeeded
	}
	return w
}

// safeWork is work, returning the value of a panic after stopping the
// other workers.
func (m *machine) safeWork(end, chunk int) (panicked any) {
	defer func() {
		if panicked = recover(); panicked != nil {
			m.run.stopAfter(-1)
		}
	}()
	m.work(end, chunk)
	return nil
}

// work runs blocks below end, taking chunk blocks at a time, until none
// are left or the launch stops. The blocks a worker takes come in order,
// so that once one is past the last block that needs to run, so are the
// rest.
func (m *machine) work(end, chunk int) {
	for {
		first := int(m.run.next.Add(int64(chunk))) - chunk
		if first >= end {
			return
		}
		for next := first; next < min(first+chunk, end); next++ {
			b := next
			if reversedBlocks && !m.run.inOrder {
				b = m.run.phase + end - 1 - (next - m.run.phase)
			}
			switch {
			case m.run.cancelled(m.prog.kernel.Name, "before", b, m.blocks):
				return
			case b > m.run.last() && reversedBlocks && !m.run.inOrder:
				continue
			case b > m.run.last():
				return
			}
			m.stop = false
			m.runBlock(b)
		}
	}
}

// reversedBlocks, set by tests, hands the blocks of each phase out from the
// last to the first: a launch must report and compute what it does when
// they run in order.
var reversedBlocks = false

// runBlock runs the kernel body for block b.
func (m *machine) runBlock(b int) {
	m.block, m.warpBase, m.mask, m.seq = b, 0, 1, 0
	clear(m.uniformDef)
	for _, p := range m.run.params {
		m.uniform[p.slot], m.uniformDef[p.slot] = p.bits, true
	}
	clear(m.smem)
	m.run.running.Add(1)
	defer m.run.running.Add(-1)
	m.nextBody()
	m.nextEpoch()
	m.prog.body(m)
	if m.scratchTop != 0 {
		panic(fmt.Sprintf("%d intermediate values left on the stack after block %d", m.scratchTop, b))
	}
}

// result returns the problems the workers found, as a run of the blocks in
// order would have reported them: each position and kind once, none after
// the first fatal problem, at most maxErrors; then the cancellation.
func (r *run) result(workers []*machine) error {
	var all []finding
	stop := never
	for _, w := range workers {
		all = append(all, w.findings...)
		if w.fatalAt.before(stop) {
			stop = w.fatalAt
		}
	}
	slices.SortFunc(all, func(a, b finding) int { return a.at.compare(b.at) })
	var errs []error
	seen := map[string]bool{}
	for _, f := range all {
		if stop.before(f.at) || len(errs) == maxErrors {
			break
		}
		if !seen[f.key] {
			seen[f.key] = true
			errs = append(errs, f.err)
		}
	}
	if r.cancel != nil {
		errs = append(errs, r.cancel)
	}
	return errors.Join(errs...)
}
