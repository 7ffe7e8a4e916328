package codegen

import (
	"fmt"

	"github.com/obsidian-go/obsidian/ir"
)

// Atomic loads and stores print as calls of helpers, written into the
// kernel's text, whose inline PTX (ld.relaxed.gpu, ld.acquire.gpu,
// st.relaxed.gpu, st.release.gpu, sm_70 and later) makes the access with
// its memory ordering at GPU scope. The helpers take generic addresses, so
// they serve global and shared arrays alike.

// ptxAccess is how PTX loads and stores a type: the instruction's type
// suffix and the inline-assembly constraint of its register.
type ptxAccess struct{ suffix, constraint string }

// ptxAccesses gives the PTX access of each type an atomic load or store
// takes (see ir.AtomicSupported).
var ptxAccesses = map[ir.Type]ptxAccess{
	ir.Int32: {"s32", "r"}, ir.Uint32: {"u32", "r"}, ir.Int64: {"s64", "l"}, ir.Uint64: {"u64", "l"},
	ir.Float32: {"f32", "f"}, ir.Float64: {"f64", "d"},
}

// ptxOrder is the PTX spelling of each memory ordering.
var ptxOrder = map[ir.MemOrder]string{ir.Relaxed: "relaxed", ir.Acquire: "acquire", ir.Release: "release"}

// orderedHelper returns the name and the C definition of the helper that
// makes atomic s, a Load or a Store, and ok false for any other atomic.
func orderedHelper(s *ir.Atomic) (name, definition string, ok bool) {
	acc, okType := ptxAccesses[s.Array.Elem]
	order, okOrder := ptxOrder[s.Order]
	if !okType || !okOrder {
		return "", "", false
	}
	t := s.Array.Elem.C()
	switch s.Op {
	case ir.AtomicLoad:
		name = "__obs_ld_" + order + "_" + acc.suffix
		definition = fmt.Sprintf("static __device__ __forceinline__ %s %s(const %s* p) { %s v; "+
			`asm volatile("ld.%s.gpu.%s %%0, [%%1];" : "=%s"(v) : "l"(p) : "memory"); return v; }`,
			t, name, t, t, order, acc.suffix, acc.constraint)
	case ir.AtomicStore:
		name = "__obs_st_" + order + "_" + acc.suffix
		definition = fmt.Sprintf("static __device__ __forceinline__ void %s(%s* p, %s v) { "+
			`asm volatile("st.%s.gpu.%s [%%0], %%1;" : : "l"(p), "%s"(v) : "memory"); }`,
			name, t, t, order, acc.suffix, acc.constraint)
	default:
		return "", "", false
	}
	return name, definition, true
}

// ordered prints atomic load or store s, guarded for a global array, and
// reports false for any other atomic.
func (p *printer) ordered(s *ir.Atomic) bool {
	name, _, ok := orderedHelper(s)
	if !ok {
		return false
	}
	a := s.Array
	exprs := []ir.Expr{s.Index}
	if s.Op == ir.AtomicStore {
		exprs = append(exprs, s.Value)
	}
	guard := a.Space == ir.Global && !p.holds(a, s.Index)
	e := p.prepare(exprs, guard)
	index := expr(e[0])
	if s.Op == ir.AtomicStore {
		p.guarded(a, index, guard, fmt.Sprintf("%s(&%s[%s], %s);", name, a.Name, index, expr(e[1])))
		return true
	}
	if s.Result == nil {
		p.guarded(a, index, guard, fmt.Sprintf("(void)%s(&%s[%s]);", name, a.Name, index))
		return true
	}
	p.forget(func(v *ir.Var) bool { return v == s.Result })
	p.guarded(a, index, guard, fmt.Sprintf("%s = %s(&%s[%s]);", s.Result.Name, name, a.Name, index))
	return true
}
