package codegen

import (
	"strings"

	"github.com/obsidian-go/obsidian/ir"
)

// forAll prints a ForAll as the hardware runs it: a block-level ForAll as
// the body of each thread (guarded when fewer iterations than threads,
// looping when more), a warp-level one over lanes the same way (lane l
// runs indices l, l + 32, ...), a grid-level one as a
// grid-stride loop with a 64-bit counter. A loop the ForAll asks to be
// unrolled follows "#pragma unroll".
func (p *printer) forAll(s *ir.ForAll) {
	i := s.Var.Name
	threads := p.k.Threads
	switch s.Kind {
	case ir.BlockThreads:
		p.spread(s, "threadIdx.x", threads)
	case ir.BlockWarps:
		p.spread(s, "threadIdx.x >> 5", threads/ir.WarpSize)
	case ir.WarpLanes:
		p.spread(s, "threadIdx.x & 31u", ir.WarpSize)
	case ir.GridThreads:
		e := p.prepare([]ir.Expr{s.Count}, true)
		p.unroll(s)
		p.line("for (unsigned long long %s_ = (unsigned long long)blockIdx.x * %d + threadIdx.x; %s_ < %s; "+
			"%s_ += (unsigned long long)gridDim.x * %d) {", i, threads, i, expr(e[0]), i, threads)
		p.strided(s)
	case ir.GridBlocks:
		e := p.prepare([]ir.Expr{s.Count}, true)
		p.unroll(s)
		p.line("for (unsigned long long %s_ = blockIdx.x; %s_ < %s; %s_ += gridDim.x) {", i, i, expr(e[0]), i)
		if len(p.k.Shared) > 0 {
			// Shared bytes reused by the layout must not be written by the
			// next virtual block while this one still reads them.
			s = &ir.ForAll{Kind: s.Kind, Var: s.Var, Count: s.Count, Unroll: s.Unroll, Pos: s.Pos,
				Body: append(append([]ir.Stmt(nil), s.Body...), &ir.Sync{Level: ir.BlockLevel, Pos: s.Pos})}
		}
		p.strided(s)
	}
}

// unroll prints the pragma that asks for the unrolling of the loop s
// prints next, if s asks for one.
func (p *printer) unroll(s *ir.ForAll) {
	if s.Unroll > 0 {
		p.line("#pragma unroll %d", s.Unroll)
	}
}

// spread prints a block-level ForAll over units (threads or warps) whose
// index in the block is index and of which the block has n. A loop asked
// to be unrolled over a constant count that is a multiple of n counts its
// rounds, so that the compiler knows how many there are.
func (p *printer) spread(s *ir.ForAll, index string, n int) {
	i := s.Var.Name
	c, constant := s.Count.(*ir.Const)
	switch {
	case constant && c.Value.Bits == uint64(n):
		p.line("{")
		p.depth++
		p.line("unsigned int %s = %s;", i, index)
	case constant && c.Value.Bits < uint64(n):
		cond := index
		if strings.Contains(index, " ") {
			cond = "(" + index + ")" // < binds tighter than >> and &
		}
		p.line("if (%s < %s) {", cond, cConst(c.Value))
		p.depth++
		p.line("unsigned int %s = %s;", i, index)
	case constant && s.Unroll > 0 && c.Value.Bits%uint64(n) == 0 && c.Value.Bits+uint64(n) <= 1<<32:
		p.unroll(s)
		p.line("for (unsigned int %s_ = 0u; %s_ < %du; %s_++) {", i, i, c.Value.Bits/uint64(n), i)
		p.depth++
		p.line("unsigned int %s = %s + %s_ * %du;", i, index, i, n)
	case constant && c.Value.Bits+uint64(n) <= 1<<32:
		p.unroll(s)
		p.line("for (unsigned int %s = %s; %s < %s; %s += %du) {", i, index, i, cConst(c.Value), i, n)
		p.depth++
	case p.boundedBelow(s.Count, n):
		e := p.prepare([]ir.Expr{s.Count}, true)
		p.unroll(s)
		p.line("for (unsigned int %s = %s; %s < %s; %s += %du) {", i, index, i, expr(e[0]), i, n)
		p.depth++
	default:
		// A count that may come within a stride of 2^32 needs a 64-bit
		// counter, which cannot wrap.
		e := p.prepare([]ir.Expr{s.Count}, true)
		p.unroll(s)
		p.line("for (unsigned long long %s_ = %s; %s_ < %s; %s_ += %du) {", i, index, i, expr(e[0]), i, n)
		p.depth++
		p.line("unsigned int %s = (unsigned int)%s_;", i, i)
	}
	p.body(s.Body)
	p.depth--
	p.line("}")
}

// strided prints the body of a grid-level loop whose 64-bit counter is
// the index's name with an underscore.
func (p *printer) strided(s *ir.ForAll) {
	p.depth++
	p.line("unsigned int %s = (unsigned int)%s_;", s.Var.Name, s.Var.Name)
	p.body(s.Body)
	p.depth--
	p.line("}")
}

// atomic prints an atomic operation, guarded for a global array. CUDA has
// some 64-bit signed atomics only in their unsigned form: those go through
// casts, which give the same bits.
func (p *printer) atomic(s *ir.Atomic) {
	if p.ordered(s) {
		return
	}
	a := s.Array
	exprs := []ir.Expr{s.Index, s.Value}
	if s.Compare != nil {
		exprs = append(exprs, s.Compare)
	}
	guard := a.Space == ir.Global && !p.holds(a, s.Index)
	e := p.prepare(exprs, guard)
	index := expr(e[0])
	args := e[1:2]
	if s.Compare != nil {
		args = []ir.Expr{e[2], e[1]} // atomicCAS(address, compare, value)
	}
	call := "atomic" + s.Op.String() + "(&" + a.Name + "[" + index + "]"
	if a.Elem == ir.Int64 && s.Op != ir.AtomicMin && s.Op != ir.AtomicMax {
		call = "atomic" + s.Op.String() + "((unsigned long long*)&" + a.Name + "[" + index + "]"
		if s.Result != nil {
			call = "(long long)" + call
		}
		for _, x := range args {
			call += ", (unsigned long long)" + operand(x, precUnary, false)
		}
	} else {
		for _, x := range args {
			call += ", " + expr(x)
		}
	}
	stmt := call + ");"
	if s.Result != nil {
		stmt = s.Result.Name + " = " + stmt
	}
	if s.Result != nil {
		p.forget(func(v *ir.Var) bool { return v == s.Result })
	}
	p.guarded(a, index, guard, stmt)
}

// boundedBelow reports whether count never comes within stride of 2^32,
// so that a 32-bit counter stepping by stride cannot wrap before it.
func (p *printer) boundedBelow(count ir.Expr, stride int) bool {
	most, ok := p.bounds.upper(count, 0)
	return ok && most+uint64(stride) <= 1<<32
}
