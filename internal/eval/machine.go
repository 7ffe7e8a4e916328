package eval

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/obsidian-go/obsidian/ir"
)

// warpSize is the number of lanes of a warp.
const warpSize = 32

// fullMask has every lane of a warp active.
const fullMask = ^uint32(0)

// vec holds one value per lane of a warp.
type vec [warpSize]uint64

// exprFn computes an expression for the lanes of a warp; only the active
// lanes (machine.mask) are meaningful, and only they may fault.
type exprFn func(m *machine, out *vec)

// stmtFn runs a statement for the active lanes.
type stmtFn func(m *machine)

// Limits that keep a launch of a bad kernel short.
const (
	maxErrors        = 10
	maxThreadsPerBlk = 1024
)

// Step limits, variables so that tests can lower them.
var (
	maxLoopSteps   = 1 << 26 // iterations of one While in one thread
	maxLaunchSteps = 1 << 27 // loop iterations and warps run in one launch
)

// stepBatch is how many steps a worker counts before it adds them to the
// launch's count and looks whether the launch is cancelled or stopped.
const stepBatch = 256

// memory is an array as one launch sees it: a global argument or the
// current block's instance of a shared array. Its bytes lie in a region
// (see memory.go), whose cells race detection works on.
type memory struct {
	array  *ir.Array
	slot   int16 // index in machine.mems
	elem   int   // element size in bytes
	data   []byte
	n      int     // elements (of each copy, for a per-warp or per-thread array)
	per    perKind // whose copy of data an access reaches
	region *region // nil for a local array, which no other thread sees, and a constant table, never written
	cell   int     // the region's cell of element 0
	cells  int     // cells per element
	// stamps holds, for a local array, when each element of each thread's
	// copy was last written: for a Held array the block body
	// (machine.body), for another local array the round of thread bodies
	// (machine.round), so that a read of an element the thread has not
	// written in the current body, or in the current iteration of the
	// ForAll that runs it, is reported; nil for the other arrays.
	stamps []uint32
}

// perKind says whose copy of an array's elements an access reaches.
type perKind uint8

const (
	perArray  perKind = iota // the one copy: a global array, a block's shared array
	perWarp                  // the warp's own: a PerWarp shared array
	perThread                // the thread's own: a local array
)

// copies returns where the copy of mem that each lane of the current warp
// reaches starts: lane l's at element base + l*stride of data, which holds
// the copies one after another.
func (m *machine) copies(mem *memory) (base, stride int) {
	switch mem.per {
	case perWarp:
		return m.warpBase / warpSize * mem.n, 0
	case perThread:
		return m.warpBase * mem.n, mem.n
	}
	return 0, 0
}

// allocated returns the memory of a shared or local array a of slot for
// the machine's block: a local array's data is the threads' copies, a
// shared array's lies in shared memory (see layoutShared).
func (m *machine) allocated(a *ir.Array, slot int) *memory {
	mem := &memory{array: a, slot: int16(slot), elem: a.Elem.Size(), n: a.Size}
	switch {
	case a.Space == ir.Local:
		mem.per = perThread
		mem.data = make([]byte, m.threads*a.Size*mem.elem)
		mem.stamps = make([]uint32, m.threads*a.Size)
	case a.PerWarp:
		mem.per = perWarp
	}
	return mem
}

// machine is the state of one worker of a launch: the blocks it runs one
// after the other, with their shared memory. The workers of a launch share
// its global memory and the run.
type machine struct {
	prog    *program
	blocks  int
	threads int
	workers int // the blocks that run at once
	run     *run

	block    int    // physical block
	warpBase int    // physical thread of lane 0 of the current warp
	mask     uint32 // active lanes; uniform code runs with lane 0 only

	uniform    []uint64 // Grid-, Block- and Warp-level variables and scalar params
	uniformDef []bool
	lanes      []vec // Thread-level variables
	laneDef    []uint32
	scratchVec []*[64]vec // a stack of vecs for the closures' intermediate values
	scratchTop int

	mems        []*memory
	tracked     []*region // the global regions with words
	globalCells uint64    // cells of the tracked regions
	smem        []byte    // the current block's shared memory
	shared      []*region // the regions of smem
	body        uint32    // counts block bodies: shared memory holds nothing from an earlier one
	round       uint32    // counts rounds of thread bodies: a local array holds nothing from an earlier one
	blockEpoch  uint32    // counts barrier intervals
	warpEpoch   []uint32
	intervals   *intervalTable // global memory's records of the current interval

	touched  uint32 // the sum of what touchGlobal reads, which keeps its reads
	steps    int    // not yet added to the run's count
	wait     waitState
	stop     bool
	findings []finding
	seq      int // problems found in the current block
	fatalAt  order
	seen     map[string]int // the finding of each position and kind
}

// order is a place in the sequential order of a launch: a block, and the
// count of problems found in it so far.
type order struct{ block, seq int }

func (o order) before(p order) bool { return o.block < p.block || o.block == p.block && o.seq < p.seq }

// compare orders o and p as cmp.Compare does: by block, then sequence.
func (o order) compare(p order) int {
	return cmp.Or(cmp.Compare(o.block, p.block), cmp.Compare(o.seq, p.seq))
}

// never is after every place of a launch.
var never = order{block: int(^uint(0) >> 1)}

// finding is a problem found at a place of a launch.
type finding struct {
	at  order
	key string
	err error
}

func newMachine(p *program, blocks, threads int) *machine {
	return &machine{
		prog:       p,
		blocks:     blocks,
		threads:    threads,
		workers:    Workers(blocks),
		run:        newRun(nil),
		mask:       1,
		uniform:    make([]uint64, p.uniformSlots),
		uniformDef: make([]bool, p.uniformSlots),
		lanes:      make([]vec, p.laneSlots),
		laneDef:    make([]uint32, p.laneSlots),
		warpEpoch:  make([]uint32, (threads+warpSize-1)/warpSize),
		body:       1,
		blockEpoch: 1,
		fatalAt:    never,
		seen:       map[string]int{},
	}
}

// scratch returns a vec for an intermediate value, which the caller gives
// back with release (closures release what they take, last first).
func (m *machine) scratch() *vec {
	chunk, i := m.scratchTop>>6, m.scratchTop&63
	if chunk == len(m.scratchVec) {
		m.scratchVec = append(m.scratchVec, new([64]vec))
	}
	m.scratchTop++
	return &m.scratchVec[chunk][i]
}

// release gives back the last n vecs scratch returned.
func (m *machine) release(n int) { m.scratchTop -= n }

// report records a problem at pos, once per position and kind; a fatal
// problem (or too many) stops the launch.
func (m *machine) report(fatal bool, pos ir.Pos, kind, format string, args ...any) {
	m.seq++
	at := order{m.block, m.seq}
	if fatal {
		m.halt()
		if at.before(m.fatalAt) {
			m.fatalAt = at
		}
	}
	key := pos.String() + "\x00" + kind
	if i, ok := m.seen[key]; ok {
		// Blocks handed out in another order (see reversedBlocks) may
		// find a problem before one of an earlier block.
		if f := &m.findings[i]; at.before(f.at) {
			f.at, f.err = at, ir.Errorf(pos, format, args...)
		}
		return
	}
	m.seen[key] = len(m.findings)
	m.findings = append(m.findings, finding{at: at, key: key, err: ir.Errorf(pos, format, args...)})
	if len(m.findings) >= maxErrors {
		m.haltAfterEnough(at)
	}
}

// haltAfterEnough stops what can no longer be reported once the worker
// has maxErrors findings, the latest at at: the blocks after the one of
// its maxErrors-th earliest finding (the launch reports at most maxErrors
// problems, the earliest), and the rest of the current block if at is not
// before that finding. Blocks handed out in another order than theirs (see
// reversedBlocks) may have left earlier blocks to run, whose problems come
// first.
func (m *machine) haltAfterEnough(at order) {
	ats := make([]order, len(m.findings))
	for i, f := range m.findings {
		ats[i] = f.at
	}
	slices.SortFunc(ats, order.compare)
	enough := ats[maxErrors-1]
	m.run.stopAfter(enough.block)
	if !at.before(enough) {
		m.stop = true
	}
}

// halt stops this worker, and the blocks after the current one.
func (m *machine) halt() {
	m.stop = true
	m.run.stopAfter(m.block)
}

func (m *machine) err() error {
	errs := make([]error, len(m.findings))
	for i, f := range m.findings {
		errs[i] = f.err
	}
	return errors.Join(errs...)
}

// step counts one loop iteration against the launch's budget.
func (m *machine) step(pos ir.Pos) bool {
	if m.steps++; m.steps >= stepBatch {
		m.countSteps(pos)
	}
	return !m.stop
}

// countSteps adds the worker's steps to the launch's, reporting a launch
// that runs too many, and stops the worker when the launch is cancelled
// or stopped before its block.
func (m *machine) countSteps(pos ir.Pos) {
	steps := m.run.steps.Add(int64(m.steps))
	m.steps = 0
	switch {
	case steps > int64(maxLaunchSteps):
		m.report(true, pos, "steps", "launch runs more than %d loop iterations: a loop does not terminate?", maxLaunchSteps)
	case m.run.cancelled(m.prog.kernel.Name, "in", m.block, m.blocks):
		m.stop = true
	case m.block > m.run.last():
		m.stop = true
	}
}

// outOfBounds reports an access to mem at index x, of type t, outside it.
func (m *machine) outOfBounds(mem *memory, t ir.Type, x uint64, pos ir.Pos, what string) {
	m.report(true, pos, "bounds", "%s %s[%v] out of bounds (length %d)", what, mem.array.Name, ir.Value{T: t, Bits: x},
		mem.n)
}

// checkWritten reports a read or atomic of shared memory mem[i] whose cell
// s the current block body has not written, or last wrote through another
// array placed at the same bytes.
func (m *machine) checkWritten(mem *memory, i int, s *cellRecord, a *access) {
	pos := m.prog.sites[a.site]
	switch {
	case (s.body != a.body || s.flags&written == 0) && mem.per == perWarp:
		m.report(false, pos, "uninit", "%s of warp-shared memory %s[%d] that warp %d has not written in this pass "+
			"of its ForAllWarps (on the GPU: what an earlier pass of the warp left, or nothing)", a.kind,
			mem.array.Name, i%mem.n, m.warpBase/warpSize)
	case s.body != a.body || s.flags&written == 0:
		m.report(false, pos, "uninit", "%s of shared memory %s[%d] that this block never wrote", a.kind,
			mem.array.Name, i)
	case s.writer != mem.slot:
		other := m.mems[s.writer]
		m.report(false, pos, "uninit", "%s of shared memory %s[%d], whose bytes were last written through %s, "+
			"placed at the same bytes of shared memory (offsets %d and %d): the two arrays are in use at once",
			a.kind, mem.array.Name, i, other.array.Name, mem.array.Offset, other.array.Offset)
	}
}

// reportRace reports the race of access a to mem[i], at the region's cell,
// with the earlier accesses c.
func (m *machine) reportRace(mem *memory, i, cell int, a *access, c conflict) {
	here := fmt.Sprintf("%s by %s of block %d", a.kind, threadName(int(a.thread)), m.block)
	through, note := "", ""
	switch {
	case c.set != nil && c.set.mem != mem.slot:
		other := m.mems[c.set.mem]
		through = fmt.Sprintf(" of %s[%d]", other.array.Name, (cell-other.cell)/other.cells)
		note = fmt.Sprintf(" (%s and %s %s)", mem.array.Name, other.array.Name, mem.region.sameBytes())
	case c.otherBlocks && len(mem.region.members) > 1:
		note = fmt.Sprintf(" (%s: %s)", mem.region.names(), mem.region.sameBytes())
	}
	var other string
	switch {
	case c.otherBlocks:
		other = fmt.Sprintf("a %s by another block (blocks are not ordered within a launch)", c.kind)
	case c.set.thread() < 0:
		other = fmt.Sprintf("%ss%s by other threads (one at %s)", c.kind, through, m.prog.sites[c.set.site])
	default:
		other = fmt.Sprintf("a %s%s by %s at %s", c.kind, through, threadName(c.set.thread()), m.prog.sites[c.set.site])
	}
	m.report(false, m.prog.sites[a.site], "race", "data race on %s[%d]: %s and %s, with no barrier between them%s",
		mem.array.Name, i, here, other, note)
}

// threadName names the thread whose accesses are recorded as those of
// thread t: "thread t", or for the copier of thread t (see
// copyAsyncLanes) "the asynchronous copy of thread t, which lands by the
// next barrier".
func threadName(t int) string {
	if t >= asyncCopier {
		return fmt.Sprintf("the asynchronous copy of thread %d, which lands by the block's next barrier", t-asyncCopier)
	}
	return fmt.Sprintf("thread %d", t)
}

// nextEpoch starts a barrier interval of the block.
func (m *machine) nextEpoch() {
	if m.blockEpoch++; m.blockEpoch == 0 {
		// After 2^32 intervals, records of the first could pass for the
		// current one's.
		m.blockEpoch = 1
		if m.intervals != nil {
			m.intervals.reset()
		}
		for _, r := range m.shared {
			r.records.reset()
		}
	}
	if m.intervals != nil {
		m.intervals.enter(m.blockEpoch)
	}
}

// nextBody starts a block body: shared memory holds nothing from the
// earlier ones.
func (m *machine) nextBody() {
	if m.body++; m.body == 0 {
		m.body = 1
		for _, r := range m.shared {
			r.records.reset()
		}
		for _, mem := range m.mems {
			if mem != nil {
				clear(mem.stamps)
			}
		}
	}
}

// forgetWarpWrites marks the current warp's region of mem, a PerWarp
// shared array, as not written by the block body, keeping the accesses of
// the barrier interval for the race checks.
func (m *machine) forgetWarpWrites(mem *memory) {
	if mem == nil || mem.region == nil {
		return
	}
	first := mem.cell + m.warpBase/warpSize*mem.n*mem.cells
	for c := range mem.n * mem.cells {
		mem.region.records.at(first + c).flags &^= written
	}
}

// nextRound starts a round of thread bodies (runLanes), in which the local
// arrays that are not Held hold nothing yet.
func (m *machine) nextRound() {
	if m.round++; m.round == 0 {
		m.round = 1
		for _, mem := range m.mems {
			if mem != nil && mem.per == perThread && !mem.array.Held {
				clear(mem.stamps)
			}
		}
	}
}

// stamp returns what a write to local array mem stamps its element with
// now, and what a read expects.
func (m *machine) stamp(mem *memory) uint32 {
	if mem.array.Held {
		return m.body
	}
	return m.round
}

// barrier ends the current barrier interval of the block (and of its warps).
func (m *machine) barrier() {
	m.nextEpoch()
	for w := range m.warpEpoch {
		m.warpEpoch[w]++
	}
}
