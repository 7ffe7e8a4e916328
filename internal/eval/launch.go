package eval

import (
	"context"
	"fmt"
	"math"

	"github.com/obsidian-go/obsidian/ir"
)

// Arg is one kernel argument, in the order of Kernel.Params: Buffer for an
// array parameter (its length is the array length the kernel sees), Scalar
// for a scalar parameter.
type Arg struct {
	Buffer *Buffer
	Scalar ir.Value
}

// Config is the grid of a launch; threads per block is the kernel's Threads.
type Config struct {
	Blocks int
	// Context, when not nil, cancels the launch: it is checked before each
	// block and every few hundred loop iterations within one, and a launch
	// whose context is done stops there with an error wrapping
	// context.Cause(Context).
	Context context.Context
	// Workers, when above 0, caps the blocks that run at once (at most
	// Workers(Blocks) run otherwise): a caller short of memory for the
	// blocks' state (StateBytes) runs fewer.
	Workers int
}

// Launch runs the kernel for cfg.Blocks blocks of k.Threads threads. It
// checks the arguments against k.Params first. It returns nil, or an error
// describing the first problems found (an errors.Join of *ir.Error, each at
// the user's Go line of the offending statement): faults, out-of-bounds
// accesses, data races (also between arguments that are overlapping views
// of one buffer, and between shared arrays the layout places at the same
// bytes), barriers reached by only some threads, reads of unwritten shared
// memory or undeclared variables. A launch stops at the
// first fault and after a few problems.
//
// The blocks run on GOMAXPROCS goroutines at once (cfg.Workers, when
// set). The problems reported are those a run of the blocks one after the
// other, in order, would find first,
// except that of two accesses of different blocks that race, the one named
// is the one that ran second, and which that is can vary from run to run.
//
// Launch compiles k for this launch alone: it is Compile and
// Program.Launch, with the grid checked before the kernel is compiled. A
// caller that launches a kernel many times compiles it once instead.
func Launch(k *ir.Kernel, cfg Config, args []Arg) (err error) {
	if k == nil {
		return fmt.Errorf("eval: launch of a nil kernel")
	}
	defer recoverInternal(k, &err)
	if err := checkThreads(k); err != nil {
		return err
	}
	if err := checkBlocks(k, cfg.Blocks); err != nil {
		return err
	}
	p, err := compile(k)
	if err != nil {
		return err
	}
	return p.launch(cfg, args)
}

// Program is a kernel compiled for the evaluator, to be launched any number
// of times: Compile checks and compiles the kernel once, and each launch
// binds its own arguments and runs on state of its own (see machine), so
// that goroutines may launch one Program at the same time, on the same or
// on different arguments, as they may launch a kernel on a GPU. A launch
// that fails leaves nothing behind for the next.
//
// A Program keeps its kernel and reads it at run time (names for reports,
// array sizes, parameters), so the kernel must not change after Compile.
type Program struct {
	prog *program
}

// Compile checks kernel k and compiles it for Program.Launch. It returns
// an error describing the problems that Launch reports before it runs a
// block (an errors.Join of *ir.Error, each at the user's Go line of the
// offending statement): a number of threads per block the evaluator does
// not run, ill-formed statements and expressions, warps in a kernel whose
// blocks are not whole warps.
func Compile(k *ir.Kernel) (p *Program, err error) {
	if k == nil {
		return nil, fmt.Errorf("eval: compile of a nil kernel")
	}
	defer recoverInternal(k, &err)
	if err := checkThreads(k); err != nil {
		return nil, err
	}
	prog, err := compile(k)
	if err != nil {
		return nil, err
	}
	return &Program{prog: prog}, nil
}

// Launch runs the program for cfg.Blocks blocks of its kernel's Threads
// threads, with args, and reports what it finds as the package's Launch
// does. It may be called from several goroutines at once.
func (p *Program) Launch(cfg Config, args []Arg) (err error) {
	if p == nil || p.prog == nil {
		return fmt.Errorf("eval: launch of a program that Compile did not return")
	}
	k := p.prog.kernel
	defer recoverInternal(k, &err)
	if err := checkBlocks(k, cfg.Blocks); err != nil {
		return err
	}
	return p.prog.launch(cfg, args)
}

// checkThreads reports a kernel whose number of threads per block the
// evaluator does not run.
func checkThreads(k *ir.Kernel) error {
	if k.Threads < 1 || k.Threads > maxThreadsPerBlk {
		return ir.Errorf(k.Pos, "kernel %s has %d threads per block, want 1 to %d", k.Name, k.Threads, maxThreadsPerBlk)
	}
	return nil
}

// checkBlocks reports a launch of k on a number of blocks the evaluator
// does not run: none, or more than a GPU's grid has.
func checkBlocks(k *ir.Kernel, blocks int) error {
	if blocks < 1 || blocks > math.MaxInt32 {
		return ir.Errorf(k.Pos, "launch of kernel %s with %d blocks", k.Name, blocks)
	}
	return nil
}

// compile compiles k, whose number of threads per block checkThreads has
// accepted, into a program, or returns the problems it found.
func compile(k *ir.Kernel) (*program, error) {
	c := newCompiler(k, kernelMode)
	c.computeTaints(k.Body)
	c.prog.body = c.stmts(k.Body, &scope{level: ir.GridLevel, pos: k.Pos})
	if err := c.err(); err != nil {
		return nil, err
	}
	if c.prog.usesWarps && k.Threads%warpSize != 0 {
		return nil, ir.Errorf(k.Pos, "kernel %s works on warps but has %d threads per block, not a multiple of %d",
			k.Name, k.Threads, warpSize)
	}
	return c.prog, nil
}

// launch runs p for cfg.Blocks blocks, a number checkBlocks has accepted,
// on a machine of its own: everything a launch writes lives in its
// machines and its run, never in p, which concurrent launches share.
func (p *program) launch(cfg Config, args []Arg) error {
	m := newMachine(p, cfg.Blocks, p.kernel.Threads)
	m.run = newRun(cfg.Context)
	m.workers = Workers(cfg.Blocks)
	if cfg.Workers > 0 {
		m.workers = min(m.workers, cfg.Workers)
	}
	if err := m.bind(args); err != nil {
		return err
	}
	defer func() {
		for _, r := range m.tracked {
			r.shadow.release()
		}
	}()
	return m.launch()
}

// recoverInternal turns a panic of the interpreter into an error.
func recoverInternal(k *ir.Kernel, err *error) {
	if r := recover(); r != nil {
		*err = ir.Errorf(k.Pos, "internal error of the evaluator on kernel %s: %v", k.Name, r)
	}
}

// bindParams checks args against the kernel's parameters and sets up the
// memories of its array parameters and its scalar parameters, which is all
// a host expression reads.
func (m *machine) bindParams(args []Arg) error {
	p := m.prog
	k := p.kernel
	if len(args) != len(k.Params) {
		return ir.Errorf(k.Pos, "kernel %s takes %d arguments, got %d", k.Name, len(k.Params), len(args))
	}
	m.mems = make([]*memory, len(p.arrays))
	for i, param := range k.Params {
		a, slot := args[i], p.params[i]
		if param.Array != nil {
			arr := param.Array
			switch {
			case a.Buffer == nil:
				return ir.Errorf(k.Pos, "argument %d (%s) of kernel %s must be a buffer of %v", i, arr.Name, k.Name, arr.Elem)
			case a.Buffer.Elem != arr.Elem:
				return ir.Errorf(k.Pos, "argument %d (%s) of kernel %s is a buffer of %v, want %v", i, arr.Name, k.Name,
					a.Buffer.Elem, arr.Elem)
			case a.Buffer.Len() > math.MaxUint32:
				return ir.Errorf(k.Pos, "argument %d (%s) of kernel %s has %d elements, more than a uint32 length",
					i, arr.Name, k.Name, a.Buffer.Len())
			}
			n := a.Buffer.Len()
			m.mems[slot.memory] = &memory{array: arr, slot: int16(slot.memory), elem: arr.Elem.Size(),
				data: a.Buffer.Data[:n*arr.Elem.Size()], n: n}
			continue
		}
		v := param.Scalar
		if a.Buffer != nil || a.Scalar.T != v.T {
			return ir.Errorf(k.Pos, "argument %d (%s) of kernel %s must be a %v scalar", i, v.Name, k.Name, v.T)
		}
		m.uniform[slot.uniform] = a.Scalar.Bits & widthMask(v.T)
		m.uniformDef[slot.uniform] = true
		m.run.params = append(m.run.params, paramValue{slot.uniform, m.uniform[slot.uniform]})
	}
	return nil
}

// bind checks args against the kernel's parameters and sets up the
// memories and scalar parameters of the machine: bindParams, then the
// kernel's own arrays (shared, local and constant) and the layout of them
// all.
func (m *machine) bind(args []Arg) error {
	if err := m.bindParams(args); err != nil {
		return err
	}
	p := m.prog
	var globals, shared []*memory
	for i, arr := range p.arrays {
		switch {
		case arr.Space == ir.Global:
			globals = append(globals, m.mems[i])
			continue
		case arr.Size < 0 || !arr.Elem.Valid():
			return ir.Errorf(arr.Pos, "%v array %s of %d elements of %v", arr.Space, arr.Name, arr.Size, arr.Elem)
		case arr.Space == ir.Constant:
			m.mems[i] = tableMemory(arr, i)
			continue
		case arr.Space == ir.Local && arr.Size > maxLocalBytes/arr.Elem.Size()/m.threads:
			return ir.Errorf(arr.Pos, "local array %s of %d elements of %v: the evaluator allows %d bytes of "+
				"local memory for a block's threads", arr.Name, arr.Size, arr.Elem, maxLocalBytes)
		}
		m.mems[i] = m.allocated(arr, i)
		if arr.Space == ir.Shared {
			shared = append(shared, m.mems[i])
		}
	}
	m.groupGlobals(globals)
	return m.layoutShared(shared)
}

// HostExpr evaluates an expression over constants, scalar parameters and
// lengths of array parameters of k (such as k.Blocks) for the given
// arguments. It sets up none of the kernel's own arrays (shared, local,
// constant), which a host expression cannot read, so that a launch's grid
// size costs no allocation of them.
func HostExpr(k *ir.Kernel, e ir.Expr, args []Arg) (v ir.Value, err error) {
	if k == nil {
		return ir.Value{}, fmt.Errorf("eval: host expression of a nil kernel")
	}
	defer recoverInternal(k, &err)
	c := newCompiler(k, hostMode)
	fn, t := c.expr(e, &scope{level: ir.GridLevel, pos: k.Pos})
	if err := c.err(); err != nil {
		return ir.Value{}, err
	}
	m := newMachine(c.prog, 1, 1)
	if err := m.bindParams(args); err != nil {
		return ir.Value{}, err
	}
	return m.value(fn, t)
}

// Expr evaluates a closed expression: constants and operators only, no
// variables, loads, lengths or hardware indices.
func Expr(e ir.Expr) (v ir.Value, err error) {
	defer recoverInternal(&ir.Kernel{Name: "(expression)"}, &err)
	c := newCompiler(nil, closedMode)
	fn, t := c.expr(e, &scope{level: ir.GridLevel})
	if err := c.err(); err != nil {
		return ir.Value{}, err
	}
	return newMachine(c.prog, 1, 1).value(fn, t)
}

// value evaluates a uniform expression of type t.
func (m *machine) value(fn exprFn, t ir.Type) (ir.Value, error) {
	var out vec
	fn(m, &out)
	if err := m.err(); err != nil {
		return ir.Value{}, err
	}
	return ir.Value{T: t, Bits: out[0]}, nil
}
