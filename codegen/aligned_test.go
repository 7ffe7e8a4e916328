package codegen

import (
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// alignedKernel copies groups of four words (at an index that is a
// multiple of 4) from in to out, both declared aligned to 16 bytes, and
// adds a 4-byte aligned input, which needs no promise to the compiler.
func alignedKernel() *ir.Kernel {
	in, out := global("in", ir.Uint32, ir.Input, 2), global("out", ir.Uint32, ir.Output, 3)
	plain := global("plain", ir.Uint32, ir.Input, 4)
	in.Align, out.Align, plain.Align = 16, 16, 4
	i, base := v("i", ir.Uint32), v("base", ir.Uint32)
	body := []ir.Stmt{decl(base, bin(ir.Mul, i, u32(4)), 11)}
	for c := range uint64(4) {
		at := bin(ir.Add, base, u32(c))
		body = append(body, store(out, at, bin(ir.Add, load(in, at, 12), load(plain, i, 12)), 12))
	}
	return kernel("aligned", []*ir.Array{in, out, plain}, nil,
		forAll(ir.GridThreads, i, bin(ir.Div, &ir.Len{Array: out}, u32(4)), 10, body...))
}

// TestAlignedParametersArePromised checks that the printed kernel tells
// the compiler the alignment of each parameter declared aligned beyond its
// element's size, and of no other.
func TestAlignedParametersArePromised(t *testing.T) {
	src, _ := mustCUDA(t, alignedKernel())
	contains(t, src,
		"in = (const unsigned int*)__builtin_assume_aligned(in, 16);",
		"out = (unsigned int*)__builtin_assume_aligned(out, 16);")
	if strings.Contains(src, "__builtin_assume_aligned(plain") {
		t.Errorf("a parameter aligned to its element's size is promised more:\n%s", src)
	}
}

// TestVerifyRejectsBadAlignments checks that verify reports, at the
// array's position, an alignment that is no power of two, too small for
// the elements, too large, or on a shared array.
func TestVerifyRejectsBadAlignments(t *testing.T) {
	for _, c := range []struct {
		align int
		elem  ir.Type
		want  string
	}{
		{3, ir.Uint32, "want a power of two"},
		{4, ir.Uint64, "want at least their size, 8"},
		{32, ir.Uint32, "want at most 16"},
		{-16, ir.Uint32, "want a power of two"},
	} {
		in := global("in", c.elem, ir.Input, 7)
		in.Align = c.align
		i := v("i", ir.Uint32)
		out := global("out", c.elem, ir.Output, 8)
		k := kernel("bad", []*ir.Array{in, out}, nil,
			forAll(ir.GridThreads, i, &ir.Len{Array: out}, 10, store(out, i, load(in, i, 11), 11)))
		err := Verify(k, DefaultTarget)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), ":7:") {
			t.Errorf("alignment %d of %v: %v, want an error at line 7 saying %q", c.align, c.elem, err, c.want)
		}
	}
	sh := shared("s", ir.Uint32, 64, 5)
	sh.Align = 16
	i := v("i", ir.Uint32)
	k := kernel("badShared", nil, []*ir.Array{sh},
		forAll(ir.BlockThreads, i, u32(64), 10, store(sh, i, i, 11)))
	if err := Verify(k, DefaultTarget); err == nil || !strings.Contains(err.Error(), "only global array parameters") {
		t.Errorf("an aligned shared array: %v, want an error saying only global arrays declare one", err)
	}
}

// TestGroupStoresUnderOneCheck checks that stores to out[x + c], c from 0
// to 3, under a condition len(out) - x > d (or >= d), with or without
// x < len(out), are printed without a check of their own exactly when the
// condition ensures x + c < len(out), so that consecutive stores can merge.
func TestGroupStoresUnderOneCheck(t *testing.T) {
	for _, c := range []struct {
		op      ir.BinOp
		d       uint64
		below   bool // the condition has x < len(out)
		checked int  // the stores printed with a check
	}{
		{ir.Gt, 3, true, 0},
		{ir.Gt, 2, true, 1},
		{ir.Ge, 3, true, 1},
		{ir.Ge, 4, true, 0},
		{ir.Gt, 0, true, 3},
		{ir.Gt, 3, false, 4},
	} {
		out := global("out", ir.Uint32, ir.Output, 2)
		i, x := v("i", ir.Uint32), v("x", ir.Uint32)
		length := &ir.Len{Array: out}
		cond := ir.Expr(bin(c.op, bin(ir.Sub, length, x), u32(c.d)))
		if c.below {
			cond = bin(ir.And, bin(ir.Lt, x, length), cond)
		}
		var stores []ir.Stmt
		for k := range uint64(4) {
			at := ir.Expr(x)
			if k > 0 {
				at = bin(ir.Add, x, u32(k))
			}
			stores = append(stores, store(out, at, i, 12))
		}
		k := kernel("group", []*ir.Array{out}, nil, forAll(ir.GridThreads, i, length, 10,
			decl(x, bin(ir.Mul, i, u32(4)), 11), &ir.If{Cond: cond, Then: stores, Pos: at(12)}))
		src, _ := mustCUDA(t, k)
		if got := strings.Count(src, "< out_len) out["); got != c.checked || strings.Count(src, "out[") != 4 {
			t.Errorf("%v %d (x < len: %v): %d stores checked, want %d:\n%s", c.op, c.d, c.below, got, c.checked, src)
		}
	}
}
