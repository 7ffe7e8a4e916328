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
// current block's instance of a shared array.
type memory struct {
	array  *ir.Array
	elem   int // element size in bytes
	data   []byte
	n      int
	shadow *shadowMemory // nil when the array is never written
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

// track records an access of lane to mem[i] for race detection and reports
// a race or a read of shared memory that was never written.
func (m *machine) track(mem *memory, i, lane int, kind accessKind, sameValue bool, value uint64, site int32) {
	if mem.shadow == nil {
		return
	}
	thread := m.warpBase + lane
	a := access{
		kind: kind, sameValue: sameValue, value: value, block: m.block, thread: thread, warp: thread / warpSize,
		blockEpoch: m.blockEpoch, warpEpoch: m.warpEpoch[thread/warpSize], site: site,
	}
	perBlock := mem.shadow.perBlock
	s := mem.shadow.at(i)
	if perBlock && kind != writeAccess && (s.block != int32(m.block+1) || s.flags&written == 0) {
		m.report(false, m.prog.sites[site], "uninit", "%s of shared memory %s[%d] that this block never wrote",
			kind, mem.array.Name, i)
	}
	c, race := s.record(&a, perBlock)
	if !race {
		return
	}
	here := fmt.Sprintf("%s by thread %d of block %d", kind, thread, m.block)
	var other string
	switch {
	case c.otherBlocks:
		other = fmt.Sprintf("a %s by another block (blocks are not ordered within a launch)", c.kind)
	case c.set.thread == severalThreads || c.set.warp == severalWarps:
		other = fmt.Sprintf("%ss by other threads (one at %s)", c.kind, m.prog.sites[c.set.site])
	default:
		other = fmt.Sprintf("a %s by thread %d at %s", c.kind, c.set.thread, m.prog.sites[c.set.site])
	}
	m.report(false, m.prog.sites[site], "race", "data race on %s[%d]: %s and %s, with no barrier between them",
		mem.array.Name, i, here, other)
}

// barrier ends the current barrier interval of the block (and of its warps).
func (m *machine) barrier() {
	m.blockEpoch++
	for w := range m.warpEpoch {
		m.warpEpoch[w]++
	}
}
