package codegen

import (
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// guardedStore is, for all i: j := i; if (j < len(out)) { before...; out[j] = 1 }.
func guardedStore(before func(j *ir.Var) []ir.Stmt) *ir.Kernel {
	in, out := global("in", ir.Uint32, ir.Input, 2), global("out", ir.Uint32, ir.Output, 3)
	i, j := v("i", ir.Uint32), v("j", ir.Uint32)
	then := append(before(j), store(out, j, u32(1), 13))
	return kernel("guard", []*ir.Array{in, out}, nil, forAll(ir.GridThreads, i, &ir.Len{Array: in}, 10,
		decl(j, i, 11),
		&ir.If{Cond: bin(ir.Lt, j, &ir.Len{Array: out}), Then: then, Pos: at(12)}))
}

// TestPrintDoesNotRepeatAGuard checks that a store inside an if that
// already bounds its index is not guarded again, unless the index may have
// changed since.
func TestPrintDoesNotRepeatAGuard(t *testing.T) {
	none := func(*ir.Var) []ir.Stmt { return nil }
	src, _ := mustCUDA(t, guardedStore(none))
	if n := strings.Count(src, "j < out_len"); n != 1 {
		t.Errorf("the bound is checked %d times:\n%s", n, src)
	}
	changed := func(j *ir.Var) []ir.Stmt {
		return []ir.Stmt{&ir.Assign{Var: j, Value: bin(ir.Add, j, u32(1)), Pos: at(12)}}
	}
	src, _ = mustCUDA(t, guardedStore(changed))
	if n := strings.Count(src, "j < out_len"); n != 2 {
		t.Errorf("after j changes, the store is not guarded again:\n%s", src)
	}
	inLoop := func(j *ir.Var) []ir.Stmt {
		k := v("k", ir.Uint32)
		return []ir.Stmt{&ir.For{Var: k, Count: u32(3), Pos: at(12), Body: []ir.Stmt{
			store(global("out", ir.Uint32, ir.Output, 3), j, u32(2), 12),
			&ir.Assign{Var: j, Value: bin(ir.Add, j, u32(1)), Pos: at(12)}}}}
	}
	k := guardedStore(inLoop)
	// the loop stores to the kernel's own out
	loop := k.Body[0].(*ir.ForAll).Body[1].(*ir.If).Then[0].(*ir.For)
	loop.Body[0].(*ir.Store).Array = k.Params[1].Array
	src, _ = mustCUDA(t, k)
	if n := strings.Count(src, "j < out_len"); n != 3 {
		t.Errorf("a loop that changes j keeps no guard:\n%s", src)
	}
}
