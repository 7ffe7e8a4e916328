package eval

import (
	"errors"
	"math"
	"slices"

	"github.com/obsidian-go/obsidian/ir"
)

// program is a kernel compiled to closures. The compiler alone writes it,
// and what its closures capture: the launches of a Program share them, and
// keep everything they change in their machines and runs.
type program struct {
	kernel       *ir.Kernel
	body         stmtFn
	uniformSlots int
	laneSlots    int
	params       []paramSlot
	arrays       []*ir.Array // memories, in machine.mems order: array params, then shared arrays
	written      []bool      // per memory: some statement writes it
	sites        []ir.Pos    // positions of memory accesses, for race reports
	usesWarps    bool        // the kernel has BlockWarps or WarpLanes
	// globalAtomics lists the atomic statements on global memory.
	globalAtomics []globalAtomic
	// waits says the kernel has a wait loop (see wait.go).
	waits bool
}

// paramSlot is where a kernel parameter lives: a memory or a uniform slot.
type paramSlot struct {
	memory  int
	uniform int
}

// maxArrays is the most array parameters and shared arrays a kernel may
// have: race detection keeps the array of an access in 16 bits.
const maxArrays = math.MaxInt16

// mode says what an expression may refer to.
type mode uint8

const (
	kernelMode mode = iota // anything
	hostMode               // constants, scalar params and Len of array params
	closedMode             // constants only
)

// compiler turns IR into closures, collecting the problems it finds.
type compiler struct {
	prog        *program
	mode        mode
	uniformSlot map[*ir.Var]int
	laneSlot    map[*ir.Var]int
	memOf       map[*ir.Array]int
	taint       map[*ir.Var]taint
	errs        []error
	// warpArrays collects, while the body of a BlockWarps ForAll is
	// compiled, the slots of the PerWarp arrays it uses (nil elsewhere).
	warpArrays *[]int
}

// scope is where a statement or expression is compiled.
type scope struct {
	level     ir.Level
	divergent taint  // thread dependence of the enclosing uniform conditions
	inWarp    bool   // a physical warp is known (Warp level and below)
	pos       ir.Pos // the enclosing statement, for expression faults
}

func newCompiler(k *ir.Kernel, md mode) *compiler {
	c := &compiler{
		prog:        &program{kernel: k},
		mode:        md,
		uniformSlot: map[*ir.Var]int{},
		laneSlot:    map[*ir.Var]int{},
		memOf:       map[*ir.Array]int{},
	}
	if k == nil {
		return c
	}
	for _, p := range k.Params {
		slot := paramSlot{memory: -1, uniform: -1}
		switch {
		case p.Array != nil && p.Scalar == nil && p.Array.Space == ir.Global:
			slot.memory = c.addMemory(p.Array)
		case p.Scalar != nil && p.Array == nil:
			slot.uniform = c.uniformVar(p.Scalar)
		default:
			c.errorf(k.Pos, "parameter %d of kernel %s must be a global array or a scalar", len(c.prog.params), k.Name)
		}
		c.prog.params = append(c.prog.params, slot)
	}
	for _, a := range k.Shared {
		if a == nil || a.Space != ir.Shared {
			c.errorf(k.Pos, "kernel %s lists a shared array that is nil or not in shared memory", k.Name)
			continue
		}
		c.addMemory(a)
	}
	for _, a := range k.Locals {
		if a == nil || a.Space != ir.Local {
			c.errorf(k.Pos, "kernel %s lists a local array that is nil or not in local memory", k.Name)
			continue
		}
		c.addMemory(a)
	}
	for _, a := range k.Constants {
		if a == nil || a.Space != ir.Constant || len(a.Values) != a.Size {
			c.errorf(k.Pos, "kernel %s lists a constant table that is nil, not in constant memory or not of its "+
				"size", k.Name)
			continue
		}
		c.addMemory(a)
	}
	if len(c.prog.arrays) > maxArrays {
		c.errorf(k.Pos, "kernel %s has %d arrays; the evaluator takes at most %d", k.Name, len(c.prog.arrays), maxArrays)
	}
	return c
}

func (c *compiler) errorf(pos ir.Pos, format string, args ...any) {
	if len(c.errs) < maxErrors {
		c.errs = append(c.errs, ir.Errorf(pos, format, args...))
	}
}

func (c *compiler) err() error { return errors.Join(c.errs...) }

func (c *compiler) addMemory(a *ir.Array) int {
	if i, ok := c.memOf[a]; ok {
		return i
	}
	c.memOf[a] = len(c.prog.arrays)
	c.prog.arrays = append(c.prog.arrays, a)
	c.prog.written = append(c.prog.written, false)
	return c.memOf[a]
}

// memory returns the memory of array a as an access at pos sees it.
func (c *compiler) memory(a *ir.Array, pos ir.Pos) (int, bool) {
	if a == nil {
		c.errorf(pos, "access to a nil array")
		return 0, false
	}
	if c.mode != kernelMode {
		c.errorf(pos, "array %s accessed in an expression evaluated on the host", a.Name)
		return 0, false
	}
	i, ok := c.memOf[a]
	if !ok {
		c.errorf(pos, "array %s is neither a parameter nor a shared array of the kernel", a.Name)
		return 0, false
	}
	if !a.Elem.Valid() {
		c.errorf(pos, "array %s has invalid element type %v", a.Name, a.Elem)
		return 0, false
	}
	if a.PerWarp && c.warpArrays != nil && !slices.Contains(*c.warpArrays, i) {
		*c.warpArrays = append(*c.warpArrays, i)
	}
	return i, true
}

// site registers the position of a memory access for race reports.
func (c *compiler) site(pos ir.Pos) int32 {
	c.prog.sites = append(c.prog.sites, pos)
	return int32(len(c.prog.sites) - 1)
}

func (c *compiler) uniformVar(v *ir.Var) int {
	if i, ok := c.uniformSlot[v]; ok {
		return i
	}
	c.uniformSlot[v] = c.prog.uniformSlots
	c.prog.uniformSlots++
	return c.uniformSlot[v]
}

func (c *compiler) laneVar(v *ir.Var) int {
	if i, ok := c.laneSlot[v]; ok {
		return i
	}
	c.laneSlot[v] = c.prog.laneSlots
	c.prog.laneSlots++
	return c.laneSlot[v]
}

// varSlot returns the slot of v, which lives in the lanes or in the uniform
// variables; a variable not seen before lives at the level of sc.
func (c *compiler) varSlot(v *ir.Var, sc *scope) (slot int, lane bool) {
	if i, ok := c.laneSlot[v]; ok {
		return i, true
	}
	if i, ok := c.uniformSlot[v]; ok {
		return i, false
	}
	if sc.level == ir.ThreadLevel {
		return c.laneVar(v), true
	}
	return c.uniformVar(v), false
}

// target returns the slot a statement at sc writes variable v to, checking
// that its type is t and that thread-level code writes no uniform variable.
func (c *compiler) target(v *ir.Var, t ir.Type, sc *scope) (slot int, lane, ok bool) {
	switch {
	case v == nil:
		c.errorf(sc.pos, "statement writes a nil variable")
		return 0, false, false
	case t != ir.NoType && v.T != t:
		c.errorf(sc.pos, "variable %s of type %v gets a value of type %v", v.Name, v.T, t)
		return 0, false, false
	}
	slot, lane = c.varSlot(v, sc)
	if sc.level == ir.ThreadLevel && !lane {
		c.errorf(sc.pos, "thread-level code writes variable %s of an outer level", v.Name)
		return 0, false, false
	}
	return slot, lane, true
}
