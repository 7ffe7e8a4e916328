package dsl

import (
	"fmt"

	"github.com/obsidian-go/obsidian/ir"
)

// Program is a program builder of any level: *Grid, *Block, *Warp or
// *Thread. Functions that add statements at any level (Let) take one.
type Program interface {
	scope() *scope
}

// Parallel is a program builder that can run a body for every index of a
// range in parallel, each index at Thread level: a Grid over global
// threads, a Block over its threads, a Warp over its lanes, and a Thread
// sequentially. Push arrays are written through it.
type Parallel interface {
	Program
	ForAll(n U32, body func(t *Thread, i U32))
}

// builder is what the statements every level has (If, IfElse, For, While)
// need of the level's builder type P: its scope (nil for a nil builder) and
// a builder of its level for a nested body. The level types spell these
// statements out as methods of their own, so that a method called on a nil
// builder reports an error instead of panicking as a promoted method would.
type builder[P any] interface {
	Program
	nest(s *scope) P
}

// nested records a body at the same level as s, given a builder of type P.
func nested[P builder[P]](s *scope, what string, pos ir.Pos, body func(P)) []ir.Stmt {
	var p P
	return s.k.record(s, s.level, fmt.Sprintf("the %v body of the %s at %v", s.level, what, pos), func(in *scope) {
		body(p.nest(in))
	})
}

// nilBody reports a nil body function given to op, and says whether one
// was nil.
func nilBody(s *scope, op string, pos ir.Pos, isNil ...bool) bool {
	for _, b := range isNil {
		if b {
			s.k.errorf(pos, "%s with a nil body function", op)
			return true
		}
	}
	return false
}

func ifStmt[P builder[P]](p P, c Bool, then func(P)) {
	pos := callerPos()
	if s := open(p, "If", pos); s != nil && !nilBody(s, "If", pos, then == nil) {
		s.add(&ir.If{Cond: c.IR(), Then: nested(s, "If", pos, then), Pos: pos})
	}
}

func ifElse[P builder[P]](p P, c Bool, then, els func(P)) {
	pos := callerPos()
	if s := open(p, "IfElse", pos); s != nil && !nilBody(s, "IfElse", pos, then == nil, els == nil) {
		s.add(&ir.If{Cond: c.IR(), Then: nested(s, "If", pos, then), Else: nested(s, "Else", pos, els), Pos: pos})
	}
}

// forLoop records a sequential loop over i = 0, ..., n-1 (what names it:
// For, or Thread.ForAll, whose index is named hint).
func forLoop[P builder[P]](p P, what, hint string, n U32, body func(P, U32)) {
	pos := callerPos()
	s := open(p, what, pos)
	if s == nil || nilBody(s, what, pos, body == nil) {
		return
	}
	v := s.k.newVar(hint, ir.Uint32)
	stmts := nested(s, what, pos, func(q P) { body(q, U32{e: v}) })
	s.add(&ir.For{Var: v, Count: n.IR(), Body: stmts, Pos: pos})
}

func whileLoop[P builder[P]](p P, c Bool, body func(P)) {
	pos := callerPos()
	if s := open(p, "While", pos); s != nil && !nilBody(s, "While", pos, body == nil) {
		s.add(&ir.While{Cond: c.IR(), Body: nested(s, "While", pos, body), Pos: pos})
	}
}

// forAll records a ForAll of kind through p whose body is at the kind's
// inner level, given a builder of type Q, its loop unrolled by unroll (0:
// the compiler's choice).
func forAll[Q builder[Q]](p Program, kind ir.ForAllKind, name, what string, n U32, unroll int, body func(Q, U32)) {
	pos := callerPos()
	s := open(p, what, pos)
	if s == nil || nilBody(s, what, pos, body == nil) {
		return
	}
	v := s.k.newVar(name, ir.Uint32)
	inner := kind.Inner()
	var q Q
	stmts := s.k.record(s, inner, fmt.Sprintf("the %v body of the %s at %v", inner, what, pos), func(in *scope) {
		body(q.nest(in), U32{e: v})
	})
	s.add(&ir.ForAll{Kind: kind, Var: v, Count: n.IR(), Body: stmts, Unroll: unroll, Pos: pos})
}

// barrier records a barrier of level through p.
func barrier(p Program, level ir.Level, what string) {
	pos := callerPos()
	if s := open(p, what, pos); s != nil {
		s.add(&ir.Sync{Level: level, Pos: pos})
	}
}

// Grid builds Grid-level code: the kernel body. It spreads work over any
// number of blocks.
type Grid struct{ s *scope }

func (g *Grid) scope() *scope {
	if g == nil {
		return nil
	}
	return g.s
}

func (*Grid) nest(s *scope) *Grid { return &Grid{s} }

// If runs then when c holds.
func (g *Grid) If(c Bool, then func(*Grid)) { ifStmt(g, c, then) }

// IfElse runs then when c holds, and els otherwise.
func (g *Grid) IfElse(c Bool, then, els func(*Grid)) { ifElse(g, c, then, els) }

// For runs body sequentially for i = 0, 1, ..., n-1.
func (g *Grid) For(n U32, body func(g *Grid, i U32)) { forLoop(g, "For", "k", n, body) }

// While runs body as long as c holds; c is evaluated before every iteration
// and normally reads variables that body assigns.
func (g *Grid) While(c Bool, body func(*Grid)) { whileLoop(g, c, body) }

// ForAll runs body for every global index i in [0, n), spread over all the
// threads of the grid (a grid-stride loop, so any number of blocks works).
func (g *Grid) ForAll(n U32, body func(t *Thread, i U32)) {
	forAll(g, ir.GridThreads, "gid", "Grid.ForAll", n, 0, body)
}

// ForAllBlocks runs the Block program body for every virtual block index in
// [0, n), spread over the blocks of the grid. The shared arrays the body
// allocates hold their contents only while it runs for one virtual block:
// using one in another body is an error.
func (g *Grid) ForAllBlocks(n U32, body func(b *Block, bid U32)) {
	forAll(g, ir.GridBlocks, "bid", "Grid.ForAllBlocks", n, 0, body)
}

// Block builds Block-level code: run by all the threads of a block, with
// control flow the same for all of them.
type Block struct{ s *scope }

func (b *Block) scope() *scope {
	if b == nil {
		return nil
	}
	return b.s
}

func (*Block) nest(s *scope) *Block { return &Block{s} }

// Threads returns the number of threads of the block, the kernel's
// threads per block (0 for a nil builder).
func (b *Block) Threads() int {
	if s := b.scope(); s != nil {
		return s.k.ir.Threads
	}
	return 0
}

// If runs then when c holds. c must be the same for every thread of the
// block if then contains a barrier.
func (b *Block) If(c Bool, then func(*Block)) { ifStmt(b, c, then) }

// IfElse runs then when c holds, and els otherwise.
func (b *Block) IfElse(c Bool, then, els func(*Block)) { ifElse(b, c, then, els) }

// For runs body sequentially for i = 0, 1, ..., n-1.
func (b *Block) For(n U32, body func(b *Block, i U32)) { forLoop(b, "For", "k", n, body) }

// While runs body as long as c holds; c is evaluated before every iteration
// and normally reads variables that body assigns.
func (b *Block) While(c Bool, body func(*Block)) { whileLoop(b, c, body) }

// ForAll runs body for every i in [0, n), one thread per index; n may exceed
// the block size (threads then loop).
func (b *Block) ForAll(n U32, body func(t *Thread, i U32)) {
	forAll(b, ir.BlockThreads, "tid", "Block.ForAll", n, 0, body)
}

// ForAllUnrolled is ForAll with each thread's loop over its indices
// unrolled by by (#pragma unroll), 0 to ir.MaxUnroll (0: the compiler's
// choice, as ForAll); over a constant count that is a multiple of the
// block, each thread counts its rounds, so that the compiler knows how
// many there are. It runs body for the same indices as ForAll: only the
// speed may differ.
func (b *Block) ForAllUnrolled(n U32, by int, body func(t *Thread, i U32)) {
	forAll(b, ir.BlockThreads, "tid", "Block.ForAllUnrolled", n, by, body)
}

// ForAllWarps runs the Warp program body for every warp index in [0, n); n
// may exceed the number of warps in the block.
func (b *Block) ForAllWarps(n U32, body func(w *Warp, wid U32)) {
	forAll(b, ir.BlockWarps, "wid", "Block.ForAllWarps", n, 0, body)
}

// Sync is a barrier for the threads of the block (__syncthreads).
func (b *Block) Sync() { barrier(b, ir.BlockLevel, "Block.Sync (a barrier)") }

// Warp builds Warp-level code: run by the 32 lanes of a warp, with control
// flow the same for all of them.
type Warp struct{ s *scope }

func (w *Warp) scope() *scope {
	if w == nil {
		return nil
	}
	return w.s
}

func (*Warp) nest(s *scope) *Warp { return &Warp{s} }

// If runs then when c holds. c must be the same for every lane of the warp
// if then contains a barrier.
func (w *Warp) If(c Bool, then func(*Warp)) { ifStmt(w, c, then) }

// IfElse runs then when c holds, and els otherwise.
func (w *Warp) IfElse(c Bool, then, els func(*Warp)) { ifElse(w, c, then, els) }

// For runs body sequentially for i = 0, 1, ..., n-1.
func (w *Warp) For(n U32, body func(w *Warp, i U32)) { forLoop(w, "For", "k", n, body) }

// While runs body as long as c holds; c is evaluated before every iteration
// and normally reads variables that body assigns.
func (w *Warp) While(c Bool, body func(*Warp)) { whileLoop(w, c, body) }

// ForAll runs body for every i in [0, n), spread over the lanes of the
// warp: lane l runs i = l, l + 32, l + 64, ... (ir.WarpSize lanes), so n
// may be any count. Shuffles and ballots need every lane in every round: a
// count that is a multiple of ir.WarpSize.
func (w *Warp) ForAll(n U32, body func(t *Thread, i U32)) {
	forAll(w, ir.WarpLanes, "lane", "Warp.ForAll", n, 0, body)
}

// Sync is a barrier for the lanes of the warp (__syncwarp).
func (w *Warp) Sync() { barrier(w, ir.WarpLevel, "Warp.Sync (a barrier)") }

// Thread builds sequential code run by one thread.
type Thread struct{ s *scope }

func (t *Thread) scope() *scope {
	if t == nil {
		return nil
	}
	return t.s
}

func (*Thread) nest(s *scope) *Thread { return &Thread{s} }

// If runs then when c holds. When c is provably the same in every lane of
// the warp (it depends on no lane's index: a Ballot's result, Any, All, a
// Shuffle from one lane, the MatchAny of such a value, WarpIdx, ...), the
// whole warp takes the branch, so that then may shuffle, ballot and match;
// the evaluator checks that the lanes of a warp agree on such a
// condition. The same holds for IfElse, For and While.
func (t *Thread) If(c Bool, then func(*Thread)) { ifStmt(t, c, then) }

// IfElse runs then when c holds, and els otherwise.
func (t *Thread) IfElse(c Bool, then, els func(*Thread)) { ifElse(t, c, then, els) }

// For runs body sequentially for i = 0, 1, ..., n-1.
func (t *Thread) For(n U32, body func(t *Thread, i U32)) { forLoop(t, "For", "k", n, body) }

// While runs body as long as c holds; c is evaluated before every iteration
// and normally reads variables that body assigns.
func (t *Thread) While(c Bool, body func(*Thread)) { whileLoop(t, c, body) }

// ForAll runs body sequentially for i = 0, ..., n-1: a thread's ForAll is a
// loop, so Push arrays can be written at Thread level too.
func (t *Thread) ForAll(n U32, body func(t *Thread, i U32)) {
	forLoop(t, "Thread.ForAll", "j", n, body)
}

// Var is a mutable local variable. Reading it is using its Exp.
type Var[T Scalar] struct {
	Exp[T]
	v     *ir.Var
	level ir.Level
	k     *Kernel
}

// Let declares a variable in p initialised to init.
func Let[T Scalar](p Program, init Exp[T]) Var[T] {
	pos := callerPos()
	s := open(p, "Let", pos)
	if s == nil {
		return Var[T]{Exp: invalid[T]("use of a variable whose Let failed")}
	}
	v := s.k.newVar("v", TypeOf[T]())
	s.add(&ir.Decl{Var: v, Init: init.IR(), Pos: pos})
	return Var[T]{Exp: Exp[T]{e: v}, v: v, level: s.level, k: s.k}
}

// Set assigns e to the variable, in the program being recorded now, which
// must be of the level the variable was declared at and of the kernel that
// declared it. Variables come from Let: Set on the zero Var is an error.
func (v Var[T]) Set(e Exp[T]) {
	pos := callerPos()
	if v.k == nil {
		if k := reportTo(nil); k != nil {
			k.errorf(pos, "Set of a zero Var (variables come from Let)")
		}
		return
	}
	if !v.k.here("Set of variable "+v.v.Name, pos) {
		return
	}
	s := v.k.top()
	switch {
	case s == nil:
		v.k.errorf(pos, "Set of %s outside the kernel's body", v.v.Name)
	case s.level != v.level:
		v.k.errorf(pos, "Set of %s, a %v-level variable, in %s: each thread would write it", v.v.Name, v.level, s.what)
	default:
		s.add(&ir.Assign{Var: v.v, Value: e.IR(), Pos: pos})
	}
}

// IRVar returns the variable's IR node (nil for the zero Var).
func (v Var[T]) IRVar() *ir.Var { return v.v }
