package irgen

import (
	"fmt"

	"github.com/leanovate/gopter"

	"github.com/obsidian-go/obsidian/ir"
)

// Program is a generated kernel with the arguments of one launch.
type Program struct {
	Kernel *ir.Kernel
	Blocks int   // blocks to launch
	Args   []Arg // one per parameter of Kernel, in order
}

// Arg is the argument of one kernel parameter: the initial elements of an
// array (as many as the array's length) or a scalar.
type Arg struct {
	Elems  []ir.Value
	Scalar ir.Value
}

// String formats the program's kernel and launch.
func (p *Program) String() string {
	return fmt.Sprintf("launch of %d blocks of\n%s", p.Blocks, FormatKernel(p.Kernel))
}

// Kernel returns a generator of well-formed kernels with the arguments of
// a launch (values of type *Program). A kernel has an input array src, an
// output array dst, an output array acc that is only updated atomically and
// a scalar parameter p, each of a random type. Its body is either a
// GridThreads ForAll over dst's indices, or a GridBlocks ForAll over
// dst's blocks of W elements whose body runs up to four BlockThreads ForAlls
// of W iterations (W half, once or twice the block size) with a barrier
// after each, passing values from one to the next through shared arrays.
// Thread bodies are random statements nested at most depth deep, with
// expressions at most depth operators deep; each ends with a store at the
// thread's own index. The shrinker removes and inlines statements and
// shrinks expressions as ShrinkExpr does, keeping the kernel well formed.
func Kernel(depth int) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		kb := &kernelBuilder{builder: builder{rng: p.Rng}, depth: depth}
		return gopter.NewGenResult(kb.program(), ShrinkProgram)
	}
}

// atomicOps lists the atomic operations CUDA has for each element type.
var atomicOps = func() map[ir.Type][]ir.AtomicOp {
	ops := map[ir.Type][]ir.AtomicOp{}
	for _, t := range ir.Types {
		for op := ir.AtomicAdd; op <= ir.AtomicCAS; op++ {
			if ir.AtomicSupported(op, t) {
				ops[t] = append(ops[t], op)
			}
		}
	}
	return ops
}()

var atomicTypes = []ir.Type{ir.Int32, ir.Uint32, ir.Int64, ir.Uint64, ir.Float32, ir.Float64}

// kernelBuilder draws one kernel.
type kernelBuilder struct {
	builder
	depth         int
	names         int
	src, dst, acc *ir.Array
}

// name returns a new name with the given prefix.
func (kb *kernelBuilder) name(prefix string) string {
	kb.names++
	return fmt.Sprintf("%s%d", prefix, kb.names)
}

func (kb *kernelBuilder) newVar(prefix string, t ir.Type) *ir.Var {
	return &ir.Var{Name: kb.name(prefix), T: t}
}

func (kb *kernelBuilder) global(name string, t ir.Type, access ir.Access) *ir.Array {
	return &ir.Array{Name: name, Elem: t, Space: ir.Global, Access: access, Pos: kb.pos()}
}

func (kb *kernelBuilder) program() *Program {
	rng := kb.rng
	k := &ir.Kernel{Name: "generated", Threads: 32 * (1 + rng.Intn(2)), Pos: kb.pos()}
	kb.src = kb.global("src", kb.anyType(), ir.Input)
	kb.dst = kb.global("dst", kb.anyType(), ir.Output)
	kb.acc = kb.global("acc", atomicTypes[rng.Intn(len(atomicTypes))], ir.Output)
	param := &ir.Var{Name: "p", T: kb.anyType()}
	k.Params = []ir.Param{{Array: kb.src}, {Array: kb.dst}, {Array: kb.acc}, {Scalar: param}}
	kb.scope = &scope{
		vars:       []*ir.Var{param},
		assignable: map[*ir.Var]bool{},
		loadable:   []*ir.Array{kb.src},
		lengths:    []*ir.Array{kb.src, kb.dst, kb.acc},
	}
	var outLen int
	if rng.Intn(2) == 0 {
		outLen = kb.gridThreads(k)
	} else {
		outLen = kb.gridBlocks(k)
	}
	k.Blocks = constant(ir.UintValue(ir.Uint32, uint64((outLen+k.Threads-1)/k.Threads)))
	return &Program{
		Kernel: k,
		Blocks: 1 + rng.Intn(3),
		Args: []Arg{
			{Elems: kb.values(kb.src.Elem, 1+rng.Intn(48))},
			{Elems: zeros(kb.dst.Elem, outLen)},
			{Elems: kb.values(kb.acc.Elem, 1+rng.Intn(8))},
			{Scalar: Value(rng, param.T)},
		},
	}
}

func (kb *kernelBuilder) values(t ir.Type, n int) []ir.Value {
	vs := make([]ir.Value, n)
	for i := range vs {
		vs[i] = Value(kb.rng, t)
	}
	return vs
}

func zeros(t ir.Type, n int) []ir.Value {
	vs := make([]ir.Value, n)
	for i := range vs {
		vs[i] = zero(t)
	}
	return vs
}

// gridThreads makes the body a GridThreads ForAll over dst and returns
// dst's length.
func (kb *kernelBuilder) gridThreads(k *ir.Kernel) int {
	i := kb.newVar("i", ir.Uint32)
	kb.scope.vars = append(kb.scope.vars, i)
	body := kb.threadBody(kb.dst, i)
	k.Body = []ir.Stmt{&ir.ForAll{Kind: ir.GridThreads, Var: i, Count: &ir.Len{Array: kb.dst}, Body: body, Pos: kb.pos()}}
	return 1 + kb.rng.Intn(3*k.Threads)
}

// unrolls are the factors a generated BlockThreads ForAll asks its loop
// to be unrolled by (0: the compiler's choice).
var unrolls = []int{0, 0, 1, 2, 4}

// gridBlocks makes the body a GridBlocks ForAll whose body is a chain of
// BlockThreads ForAlls through shared memory, and returns dst's length.
func (kb *kernelBuilder) gridBlocks(k *ir.Kernel) int {
	rng := kb.rng
	width := k.Threads * []int{1, 2, 4}[rng.Intn(3)] / 2
	blk := kb.newVar("b", ir.Uint32)
	base := kb.newVar("base", ir.Uint32)
	w := constant(ir.UintValue(ir.Uint32, uint64(width)))
	kb.scope.vars = append(kb.scope.vars, blk, base)
	body := []ir.Stmt{&ir.Decl{Var: base, Init: &ir.Binary{Op: ir.Mul, X: blk, Y: w}, Pos: kb.pos()}}
	phases := 1 + rng.Intn(4)
	var previous *ir.Array
	for ph := 1; ph <= phases; ph++ {
		j := kb.newVar("j", ir.Uint32)
		target, index := kb.dst, ir.Expr(&ir.Binary{Op: ir.Add, X: base, Y: j})
		if ph < phases {
			target = &ir.Array{Name: kb.name("sh"), Elem: kb.anyType(), Space: ir.Shared, Access: ir.ReadWrite,
				Size: width, Pos: kb.pos()}
			k.Shared = append(k.Shared, target)
			index = j
		}
		saved := *kb.scope
		kb.scope.vars = append(kb.scope.vars[:len(kb.scope.vars):len(kb.scope.vars)], j)
		if previous != nil {
			kb.scope.loadable = append(kb.scope.loadable[:len(kb.scope.loadable):len(kb.scope.loadable)], previous)
			kb.scope.lengths = append(kb.scope.lengths[:len(kb.scope.lengths):len(kb.scope.lengths)], previous)
		}
		threads := kb.threadBody(target, index)
		*kb.scope = saved
		body = append(body, &ir.ForAll{Kind: ir.BlockThreads, Var: j, Count: w, Body: threads,
			Unroll: unrolls[rng.Intn(len(unrolls))], Pos: kb.pos()})
		if phases > 1 {
			body = append(body, &ir.Sync{Level: ir.BlockLevel, Pos: kb.pos()})
		}
		previous = target
	}
	count := &ir.Binary{Op: ir.Div, X: &ir.Len{Array: kb.dst}, Y: w}
	k.Body = []ir.Stmt{&ir.ForAll{Kind: ir.GridBlocks, Var: blk, Count: count, Body: body, Pos: kb.pos()}}
	return width * (1 + rng.Intn(4))
}

// threadBody returns random thread statements ending with a store of a
// random value into target at index, the thread's own element.
func (kb *kernelBuilder) threadBody(target *ir.Array, index ir.Expr) []ir.Stmt {
	body := kb.stmts(target, index, kb.depth)
	return append(body, &ir.Store{Array: target, Index: index, Value: kb.expr(target.Elem, kb.depth), Pos: kb.pos()})
}

// stmts returns up to four random thread statements, nested at most depth
// deep, in a scope of their own.
func (kb *kernelBuilder) stmts(target *ir.Array, index ir.Expr, depth int) []ir.Stmt {
	saved := len(kb.scope.vars)
	var out []ir.Stmt
	for n := kb.rng.Intn(5); n > 0; n-- {
		out = append(out, kb.stmt(target, index, depth)...)
	}
	kb.scope.vars = kb.scope.vars[:saved]
	return out
}

// stmt returns one random thread statement (two when an atomic's result
// needs a variable declared first).
func (kb *kernelBuilder) stmt(target *ir.Array, index ir.Expr, depth int) []ir.Stmt {
	rng, sc := kb.rng, kb.scope
	switch rng.Intn(8) {
	case 0:
		if v := kb.assignable(kb.anyType()); v != nil {
			return []ir.Stmt{&ir.Assign{Var: v, Value: kb.expr(v.T, kb.depth), Pos: kb.pos()}}
		}
	case 1:
		if depth > 0 {
			s := &ir.If{Cond: kb.expr(ir.Bool, kb.depth), Pos: kb.pos()}
			s.Then = kb.stmts(target, index, depth-1)
			if kb.chance(2) {
				s.Else = kb.stmts(target, index, depth-1)
			}
			return []ir.Stmt{s}
		}
	case 2:
		if depth > 0 {
			t := []ir.Type{ir.Int32, ir.Uint32, ir.Int64, ir.Uint64}[rng.Intn(4)]
			s := &ir.For{Var: kb.newVar("k", t), Count: constant(ir.IntValue(t, int64(rng.Intn(4)))), Pos: kb.pos()}
			sc.vars = append(sc.vars, s.Var)
			s.Body = kb.stmts(target, index, depth-1)
			sc.vars = sc.vars[:len(sc.vars)-1]
			return []ir.Stmt{s}
		}
	case 3:
		return []ir.Stmt{&ir.Store{Array: target, Index: index, Value: kb.expr(target.Elem, kb.depth), Pos: kb.pos()}}
	case 4:
		return kb.atomic()
	}
	v := kb.newVar("x", kb.anyType())
	s := &ir.Decl{Var: v, Init: kb.expr(v.T, kb.depth), Pos: kb.pos()}
	sc.vars = append(sc.vars, v)
	sc.assignable[v] = true
	return []ir.Stmt{s}
}

// assignable returns a visible variable of type t that thread code may
// assign, or nil.
func (kb *kernelBuilder) assignable(t ir.Type) *ir.Var {
	var vs []*ir.Var
	for _, v := range kb.scope.vars {
		if v.T == t && kb.scope.assignable[v] {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return nil
	}
	return vs[kb.rng.Intn(len(vs))]
}

// atomic returns an atomic update of acc at a random in-range index, its
// result going to a variable half the time (declared first when none is
// at hand).
func (kb *kernelBuilder) atomic() []ir.Stmt {
	rng, t := kb.rng, kb.acc.Elem
	ops := atomicOps[t]
	s := &ir.Atomic{Op: ops[rng.Intn(len(ops))], Array: kb.acc, Index: InRange(kb.acc, kb.expr(ir.Uint32, kb.depth)),
		Value: kb.expr(t, kb.depth)}
	if s.Op == ir.AtomicCAS {
		s.Compare = kb.expr(t, kb.depth)
	}
	var out []ir.Stmt
	if kb.chance(2) {
		s.Result = kb.assignable(t)
		if s.Result == nil {
			s.Result = kb.newVar("r", t)
			out = append(out, &ir.Decl{Var: s.Result, Init: constant(zero(t)), Pos: kb.pos()})
			kb.scope.vars = append(kb.scope.vars, s.Result)
			kb.scope.assignable[s.Result] = true
		}
	}
	s.Pos = kb.pos()
	return append(out, s)
}
