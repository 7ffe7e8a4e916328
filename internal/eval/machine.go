package eval

import (
	"errors"
	"fmt"

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

// memory is an array as one launch sees it: a global argument or the
// current block's instance of a shared array. Its bytes lie in a region
// (see memory.go), whose cells race detection works on.
type memory struct {
	array  *ir.Array
	slot   int32 // index in machine.mems
	elem   int   // element size in bytes
	data   []byte
	n      int
	region *region
	cell   int // the region's cell of element 0
	cells  int // cells per element
}

// machine is the state of one launch.
type machine struct {
	prog    *program
	blocks  int
	threads int

	block    int    // physical block
	warpBase int    // physical thread of lane 0 of the current warp
	mask     uint32 // active lanes; uniform code runs with lane 0 only

	uniform    []uint64 // Grid-, Block- and Warp-level variables and scalar params
	uniformDef []bool
	lanes      []vec // Thread-level variables
	laneDef    []uint32

	mems       []*memory
	smem       []byte // the current block's shared memory
	sharedGen  int    // counts blocks and block bodies: shared memory holds nothing from an earlier one
	blockEpoch uint32
	warpEpoch  []uint32

	steps int
	stop  bool
	errs  []error
	seen  map[string]bool

	// scratch holds the vectors of operands being evaluated, a stack:
	// scratch[:scratchTop] are in use.
	scratch    []*vec
	scratchTop int
}

func newMachine(p *program, blocks, threads int) *machine {
	return &machine{
		prog:       p,
		blocks:     blocks,
		threads:    threads,
		mask:       1,
		uniform:    make([]uint64, p.uniformSlots),
		uniformDef: make([]bool, p.uniformSlots),
		lanes:      make([]vec, p.laneSlots),
		laneDef:    make([]uint32, p.laneSlots),
		warpEpoch:  make([]uint32, (threads+warpSize-1)/warpSize),
		seen:       map[string]bool{},
	}
}

// report records a problem at pos, once per position and kind; a fatal
// problem (or too many) stops the launch.
func (m *machine) report(fatal bool, pos ir.Pos, kind, format string, args ...any) {
	if fatal {
		m.stop = true
	}
	key := pos.String() + "\x00" + kind
	if m.seen[key] {
		return
	}
	m.seen[key] = true
	m.errs = append(m.errs, ir.Errorf(pos, format, args...))
	if len(m.errs) >= maxErrors {
		m.stop = true
	}
}

func (m *machine) err() error { return errors.Join(m.errs...) }

// step counts one loop iteration against the launch's budget.
func (m *machine) step(pos ir.Pos) bool {
	m.steps++
	if m.steps > maxLaunchSteps {
		m.report(true, pos, "steps", "launch runs more than %d loop iterations: a loop does not terminate?", maxLaunchSteps)
	}
	return !m.stop
}

// index checks the index bits x (of type t) of an access to mem and returns
// it as an int.
func (m *machine) index(mem *memory, t ir.Type, x uint64, pos ir.Pos, what string) (int, bool) {
	i := signExtend(t, x)
	if i < 0 || i >= int64(mem.n) || (t.IsUnsigned() && x >= uint64(mem.n)) {
		m.report(true, pos, "bounds", "%s %s[%v] out of bounds (length %d)", what, mem.array.Name, ir.Value{T: t, Bits: x},
			mem.n)
		return 0, false
	}
	return int(i), true
}

// track records an access of lane to mem[i] for race detection, on each
// cell of the region the element covers, and reports a race or a read of
// shared memory that the block body never wrote through mem.
func (m *machine) track(mem *memory, i, lane int, kind accessKind, sameValue bool, value uint64, site int32) {
	r := mem.region
	if r == nil || r.shadow == nil {
		return
	}
	thread := m.warpBase + lane
	block := m.block
	if r.shared {
		block = m.sharedGen
	}
	a := access{
		kind: kind, sameValue: sameValue, value: value, mem: mem.slot, block: block, thread: thread,
		warp: thread / warpSize, blockEpoch: m.blockEpoch, warpEpoch: m.warpEpoch[thread/warpSize], site: site,
	}
	first := mem.cell + i*mem.cells
	for cell := first; cell < first+mem.cells; cell++ {
		s := r.shadow.at(cell)
		if r.shared && kind != writeAccess {
			m.checkWritten(mem, i, s, &a)
		}
		if c, race := s.record(&a, r.shared); race {
			m.reportRace(mem, i, cell, &a, c)
			return
		}
	}
}

// checkWritten reports a read or atomic of shared memory mem[i] whose cell
// s the current block body has not written, or last wrote through another
// array placed at the same bytes.
func (m *machine) checkWritten(mem *memory, i int, s *shadow, a *access) {
	pos := m.prog.sites[a.site]
	switch {
	case s.block != int32(a.block+1) || s.flags&written == 0:
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
	here := fmt.Sprintf("%s by thread %d of block %d", a.kind, a.thread, m.block)
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
	case c.set.thread == severalThreads || c.set.warp == severalWarps:
		other = fmt.Sprintf("%ss%s by other threads (one at %s)", c.kind, through, m.prog.sites[c.set.site])
	default:
		other = fmt.Sprintf("a %s%s by thread %d at %s", c.kind, through, c.set.thread, m.prog.sites[c.set.site])
	}
	m.report(false, m.prog.sites[a.site], "race", "data race on %s[%d]: %s and %s, with no barrier between them%s",
		mem.array.Name, i, here, other, note)
}

// barrier ends the current barrier interval of the block (and of its warps).
func (m *machine) barrier() {
	m.blockEpoch++
	for w := range m.warpEpoch {
		m.warpEpoch[w]++
	}
}
