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

// program holds what the builders of every level share; P is the level's own
// builder type, which nested bodies (If, For, While) are given.
type program[P any] struct {
	s    *scope
	wrap func(*scope) P
}

func (p *program[P]) scope() *scope { return p.s }

// nested records a body at the same level as p.
func (p *program[P]) nested(what string, pos ir.Pos, body func(P)) []ir.Stmt {
	return p.s.k.record(p.s, p.s.level, fmt.Sprintf("the %v body of the %s at %v", p.s.level, what, pos), func(s *scope) {
		body(p.wrap(s))
	})
}

// If runs then when c holds. At Grid, Block and Warp level c must be the
// same for every thread if then contains a barrier.
func (p *program[P]) If(c Bool, then func(P)) {
	pos := callerPos()
	if !p.s.use("If", pos) {
		return
	}
	p.s.add(&ir.If{Cond: c.IR(), Then: p.nested("If", pos, then), Pos: pos})
}

// IfElse runs then when c holds, and els otherwise.
func (p *program[P]) IfElse(c Bool, then, els func(P)) {
	pos := callerPos()
	if !p.s.use("IfElse", pos) {
		return
	}
	p.s.add(&ir.If{Cond: c.IR(), Then: p.nested("If", pos, then), Else: p.nested("Else", pos, els), Pos: pos})
}

// For runs body sequentially for i = 0, 1, ..., n-1.
func (p *program[P]) For(n U32, body func(p P, i U32)) {
	pos := callerPos()
	if !p.s.use("For", pos) {
		return
	}
	v := &ir.Var{Name: p.s.k.fresh("k"), T: ir.Uint32}
	stmts := p.nested("For", pos, func(q P) { body(q, U32{e: v}) })
	p.s.add(&ir.For{Var: v, Count: n.IR(), Body: stmts, Pos: pos})
}

// While runs body as long as c holds; c is evaluated before every iteration
// and normally reads variables that body assigns.
func (p *program[P]) While(c Bool, body func(P)) {
	pos := callerPos()
	if !p.s.use("While", pos) {
		return
	}
	p.s.add(&ir.While{Cond: c.IR(), Body: p.nested("While", pos, body), Pos: pos})
}

// forAll records a ForAll of kind whose body is at the kind's inner level.
func forAll[Q any](s *scope, kind ir.ForAllKind, name, what string, n U32, wrap func(*scope) Q, body func(Q, U32)) {
	pos := callerPos()
	if !s.use(what, pos) {
		return
	}
	v := &ir.Var{Name: s.k.fresh(name), T: ir.Uint32}
	inner := kind.Inner()
	stmts := s.k.record(s, inner, fmt.Sprintf("the %v body of the %s at %v", inner, what, pos), func(in *scope) {
		body(wrap(in), U32{e: v})
	})
	s.add(&ir.ForAll{Kind: kind, Var: v, Count: n.IR(), Body: stmts, Pos: pos})
}

// Grid builds Grid-level code: the kernel body. It spreads work over any
// number of blocks.
type Grid struct{ program[*Grid] }

func newGrid(s *scope) *Grid { g := &Grid{}; g.s, g.wrap = s, newGrid; return g }

// ForAll runs body for every global index i in [0, n), spread over all the
// threads of the grid (a grid-stride loop, so any number of blocks works).
func (g *Grid) ForAll(n U32, body func(t *Thread, i U32)) {
	forAll(g.s, ir.GridThreads, "gid", "Grid.ForAll", n, newThread, body)
}

// ForAllBlocks runs the Block program body for every virtual block index in
// [0, n), spread over the blocks of the grid.
func (g *Grid) ForAllBlocks(n U32, body func(b *Block, bid U32)) {
	forAll(g.s, ir.GridBlocks, "bid", "Grid.ForAllBlocks", n, newBlock, body)
}

// Block builds Block-level code: run by all the threads of a block, with
// control flow the same for all of them.
type Block struct{ program[*Block] }

func newBlock(s *scope) *Block { b := &Block{}; b.s, b.wrap = s, newBlock; return b }

// ForAll runs body for every i in [0, n), one thread per index; n may exceed
// the block size (threads then loop).
func (b *Block) ForAll(n U32, body func(t *Thread, i U32)) {
	forAll(b.s, ir.BlockThreads, "tid", "Block.ForAll", n, newThread, body)
}

// ForAllWarps runs the Warp program body for every warp index in [0, n); n
// may exceed the number of warps in the block.
func (b *Block) ForAllWarps(n U32, body func(w *Warp, wid U32)) {
	forAll(b.s, ir.BlockWarps, "wid", "Block.ForAllWarps", n, newWarp, body)
}

// Sync is a barrier for the threads of the block (__syncthreads).
func (b *Block) Sync() {
	pos := callerPos()
	if b.s.use("Block.Sync (a barrier)", pos) {
		b.s.add(&ir.Sync{Level: ir.BlockLevel, Pos: pos})
	}
}

// Warp builds Warp-level code: run by the 32 lanes of a warp, with control
// flow the same for all of them.
type Warp struct{ program[*Warp] }

func newWarp(s *scope) *Warp { w := &Warp{}; w.s, w.wrap = s, newWarp; return w }

// ForAll runs body for every lane in [0, n), n <= 32.
func (w *Warp) ForAll(n U32, body func(t *Thread, lane U32)) {
	forAll(w.s, ir.WarpLanes, "lane", "Warp.ForAll", n, newThread, body)
}

// Sync is a barrier for the lanes of the warp (__syncwarp).
func (w *Warp) Sync() {
	pos := callerPos()
	if w.s.use("Warp.Sync (a barrier)", pos) {
		w.s.add(&ir.Sync{Level: ir.WarpLevel, Pos: pos})
	}
}

// Thread builds sequential code run by one thread.
type Thread struct{ program[*Thread] }

func newThread(s *scope) *Thread { t := &Thread{}; t.s, t.wrap = s, newThread; return t }

// ForAll runs body sequentially for i = 0, ..., n-1: a thread's ForAll is a
// loop, so Push arrays can be written at Thread level too.
func (t *Thread) ForAll(n U32, body func(t *Thread, i U32)) {
	pos := callerPos()
	if !t.s.use("Thread.ForAll", pos) {
		return
	}
	v := &ir.Var{Name: t.s.k.fresh("j"), T: ir.Uint32}
	stmts := t.nested("ForAll", pos, func(q *Thread) { body(q, U32{e: v}) })
	t.s.add(&ir.For{Var: v, Count: n.IR(), Body: stmts, Pos: pos})
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
	s := p.scope()
	pos := callerPos()
	v := &ir.Var{Name: s.k.fresh("v"), T: TypeOf[T]()}
	if s.use("Let", pos) {
		s.add(&ir.Decl{Var: v, Init: init.IR(), Pos: pos})
	}
	return Var[T]{Exp: Exp[T]{e: v}, v: v, level: s.level, k: s.k}
}

// Set assigns e to the variable, in the program being recorded now, which
// must be of the level the variable was declared at. Variables come from
// Let: on the zero Var, Set does nothing (and any kernel that reads it fails
// to build, as reading a zero Exp does).
func (v Var[T]) Set(e Exp[T]) {
	if v.k == nil {
		return
	}
	pos := callerPos()
	s := v.k.top()
	if s == nil {
		v.k.errorf(pos, "Set of %s outside the kernel's body", v.v.Name)
		return
	}
	if s.level != v.level {
		v.k.errorf(pos, "Set of %s, a %v-level variable, in %s: each thread would write it", v.v.Name, v.level, s.what)
		return
	}
	s.add(&ir.Assign{Var: v.v, Value: e.IR(), Pos: pos})
}

// IRVar returns the variable's IR node.
func (v Var[T]) IRVar() *ir.Var { return v.v }
