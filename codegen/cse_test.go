package codegen

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/ir"
)

// evalArgs returns fresh arguments for k: random array elements (n of
// each) and the given scalars, in the order of k's parameters.
func evalArgs(k *ir.Kernel, n int, seed int64, scalars ...ir.Value) []eval.Arg {
	r := rand.New(rand.NewSource(seed))
	var args []eval.Arg
	for _, p := range k.Params {
		if p.Array == nil {
			args = append(args, eval.Arg{Scalar: scalars[0]})
			scalars = scalars[1:]
			continue
		}
		b := eval.NewBuffer(p.Array.Elem, n)
		for i := range n {
			b.Set(i, ir.UintValue(p.Array.Elem, uint64(r.Intn(1000))))
		}
		args = append(args, eval.Arg{Buffer: b})
	}
	return args
}

// contents returns the elements of the array arguments.
func contents(args []eval.Arg) [][]ir.Value {
	var out [][]ir.Value
	for _, a := range args {
		if a.Buffer == nil {
			continue
		}
		vs := make([]ir.Value, a.Buffer.Len())
		for i := range vs {
			vs[i] = a.Buffer.Get(i)
		}
		out = append(out, vs)
	}
	return out
}

// sameResults launches k and its compiled copy c in the evaluator on the
// same fresh arguments and fails unless both succeed and leave the same
// array contents.
func sameResults(t *testing.T, k, c *ir.Kernel, blocks, n int, scalars ...ir.Value) {
	t.Helper()
	want, got := evalArgs(k, n, 1, scalars...), evalArgs(c, n, 1, scalars...)
	if err := eval.Launch(k, eval.Config{Blocks: blocks}, want); err != nil {
		t.Fatalf("the kernel as built fails: %v", err)
	}
	if err := eval.Launch(c, eval.Config{Blocks: blocks}, got); err != nil {
		t.Fatalf("the compiled kernel fails: %v", err)
	}
	w, g := contents(want), contents(got)
	for i := range w {
		for j := range w[i] {
			if w[i][j] != g[i][j] {
				t.Fatalf("array %d element %d is %v compiled, %v as built", i, j, g[i][j], w[i][j])
			}
		}
	}
}

// expectCount compiles and prints k, fails unless the printed CUDA has
// text want times, and then unless its compiled copy computes what k does
// (launched on blocks blocks, arrays of n elements, the given scalars).
func expectCount(t *testing.T, k *ir.Kernel, text string, want, blocks, n int, scalars ...ir.Value) {
	t.Helper()
	src, c := mustCUDA(t, k)
	if got := strings.Count(src, text); got != want {
		t.Fatalf("%s printed %d times, want %d:\n%s", text, got, want, src)
	}
	sameResults(t, k, c, blocks, n, scalars...)
}

// overAll is a GridThreads ForAll of index i over the length of a.
func overAll(i *ir.Var, a *ir.Array, body ...ir.Stmt) *ir.ForAll {
	return forAll(ir.GridThreads, i, &ir.Len{Array: a}, 10, body...)
}

// TestCSEDoesNotReuseALoadAcrossAStore checks that a load is read again
// after a store or an atomic to its array, and reused after one to another
// array.
func TestCSEDoesNotReuseALoadAcrossAStore(t *testing.T) {
	for _, c := range []struct {
		name  string
		write func(io, other *ir.Array, i ir.Expr, x *ir.Var) ir.Stmt
		want  int
	}{
		{"store to the array", func(io, _ *ir.Array, i ir.Expr, x *ir.Var) ir.Stmt {
			return store(io, i, bin(ir.Mul, x, u32(3)), 12)
		}, 2},
		{"atomic on the array", func(io, _ *ir.Array, i ir.Expr, x *ir.Var) ir.Stmt {
			return &ir.Atomic{Op: ir.AtomicAdd, Array: io, Index: i, Value: x, Pos: at(12)}
		}, 2},
		{"store to another array", func(_, other *ir.Array, i ir.Expr, x *ir.Var) ir.Stmt {
			return store(other, i, bin(ir.Mul, x, u32(3)), 12)
		}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			io := global("io", ir.Uint32, ir.ReadWrite, 2)
			other, out := global("other", ir.Uint32, ir.Output, 3), global("out", ir.Uint32, ir.Output, 4)
			i, x := v("i", ir.Uint32), v("x", ir.Uint32)
			plus1 := func() ir.Expr { return bin(ir.Add, load(io, i, 11), u32(1)) }
			k := kernel("loads", []*ir.Array{io, other, out}, nil, overAll(i, io,
				decl(x, plus1(), 11),
				c.write(io, other, i, x),
				store(out, i, bin(ir.Xor, plus1(), x), 13)))
			expectCount(t, k, "io[i] + 1u", c.want, 2, 300)
		})
	}
}

// TestCSEDoesNotReuseAcrossAnAssignment checks that an expression is
// computed again after a variable it reads is assigned: directly, in a
// branch of an if, in a loop's body (where the use is), or as a loop's
// index; and that it is reused where nothing changes it.
func TestCSEDoesNotReuseAcrossAnAssignment(t *testing.T) {
	in, out := global("in", ir.Uint32, ir.Input, 2), global("out", ir.Uint32, ir.Output, 3)
	i, x, a, b := v("i", ir.Uint32), v("x", ir.Uint32), v("a", ir.Uint32), v("b", ir.Uint32)
	k3 := v("k", ir.Uint32)
	f := func() ir.Expr { return bin(ir.Add, bin(ir.Mul, x, u32(7)), u32(1)) } // x*7 + 1
	bump := func() ir.Stmt { return &ir.Assign{Var: x, Value: bin(ir.Add, x, u32(2)), Pos: at(13)} }
	cond := func() ir.Expr { return bin(ir.Gt, load(in, i, 13), u32(500)) }
	for _, c := range []struct {
		name    string
		between []ir.Stmt
		want    int
	}{
		{"assigned", []ir.Stmt{bump()}, 2},
		{"assigned in a branch", []ir.Stmt{&ir.If{Cond: cond(), Then: []ir.Stmt{bump()}, Pos: at(13)}}, 2},
		{"assigned in an else branch", []ir.Stmt{&ir.If{Cond: cond(), Else: []ir.Stmt{bump()}, Pos: at(13)}}, 2},
		{"assigned in a loop", []ir.Stmt{&ir.For{Var: k3, Count: u32(3), Body: []ir.Stmt{bump()}, Pos: at(13)}}, 2},
		{"unchanged", []ir.Stmt{&ir.If{Cond: cond(), Then: []ir.Stmt{store(out, i, u32(9), 13)}, Pos: at(13)}}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := []ir.Stmt{decl(x, load(in, i, 11), 11), decl(a, f(), 12)}
			body = append(body, c.between...)
			body = append(body, decl(b, f(), 14), store(out, i, bin(ir.Xor, a, b), 15))
			k := kernel("assigned", []*ir.Array{in, out}, nil, overAll(i, in, body...))
			expectCount(t, k, "x * 7u + 1u", c.want, 2, 300)
		})
	}
	// In a loop, a use before the change in the body reads the new value
	// from the second iteration on: it is computed again in the body, and
	// so is a While's condition.
	for _, loop := range []ir.Stmt{
		&ir.For{Var: k3, Count: u32(3), Pos: at(13), Body: []ir.Stmt{store(out, i, f(), 13), bump()}},
		&ir.While{Cond: bin(ir.Lt, f(), u32(9000)), Body: []ir.Stmt{bump()}, Pos: at(13)},
	} {
		k := kernel("loop", []*ir.Array{in, out}, nil, overAll(i, in,
			decl(x, load(in, i, 11), 11), decl(a, f(), 12), loop, store(out, i, bin(ir.Xor, a, x), 15)))
		expectCount(t, k, "x * 7u + 1u", 2, 2, 300)
	}
}

// TestCSEDoesNotHoistOutOfABranch checks that a division computed in the
// branches of ifs, which guard it, is not computed before them, and that
// one computed before an if is reused inside it.
func TestCSEDoesNotHoistOutOfABranch(t *testing.T) {
	in, out := global("in", ir.Uint32, ir.Input, 2), global("out", ir.Uint32, ir.Output, 3)
	out2 := global("out2", ir.Uint32, ir.Output, 4)
	i, x, q := v("i", ir.Uint32), v("x", ir.Uint32), v("q", ir.Uint32)
	div := func() ir.Expr { return bin(ir.Div, load(in, i, 12), q) }
	nonzero := func() ir.Expr { return bin(ir.Ne, q, u32(0)) }
	branches := kernel("branches", []*ir.Array{in, out, out2}, nil, overAll(i, in,
		&ir.If{Cond: nonzero(), Then: []ir.Stmt{store(out, i, div(), 12)}, Pos: at(12)},
		&ir.If{Cond: nonzero(), Then: []ir.Stmt{store(out2, i, div(), 13)}, Pos: at(13)},
		&ir.If{Cond: bin(ir.Gt, load(in, i, 14), u32(500)), Pos: at(14),
			Then: []ir.Stmt{store(out, i, bin(ir.Rem, load(in, i, 14), bin(ir.Add, q, u32(1))), 14)},
			Else: []ir.Stmt{store(out2, i, bin(ir.Rem, load(in, i, 14), bin(ir.Add, q, u32(1))), 14)}}))
	branches.Params = append(branches.Params, ir.Param{Scalar: q})
	for _, divisor := range []uint64{0, 7} {
		// with q = 0 the kernel fails if the division leaves its guard
		expectCount(t, branches, "in[i] / q", 2, 2, 300, ir.UintValue(ir.Uint32, divisor))
	}
	src, _ := mustCUDA(t, branches)
	if n := strings.Count(src, "% (q + 1u)"); n != 2 {
		t.Errorf("%% (q + 1u) printed %d times, want 2 (once in each branch):\n%s", n, src)
	}
	before := kernel("before", []*ir.Array{in, out, out2}, nil, overAll(i, in,
		decl(x, div(), 11),
		&ir.If{Cond: bin(ir.Gt, x, u32(5)), Then: []ir.Stmt{store(out, i, div(), 12)}, Pos: at(12)},
		store(out2, i, x, 13)))
	before.Params = append(before.Params, ir.Param{Scalar: q})
	expectCount(t, before, "in[i] / q", 1, 2, 300, ir.UintValue(ir.Uint32, 7))
}

// TestCSEDoesNotReuseALoadAcrossABarrier checks that block-level code
// loads shared memory again after a barrier, while arithmetic on variables
// is reused across it.
func TestCSEDoesNotReuseALoadAcrossABarrier(t *testing.T) {
	in, out := global("in", ir.Uint32, ir.Input, 2), global("out", ir.Uint32, ir.Output, 3)
	sh := shared("sh", ir.Uint32, 256, 4)
	n, a, b, c, d := v("n", ir.Uint32), v("a", ir.Uint32), v("b", ir.Uint32), v("c", ir.Uint32), v("d", ir.Uint32)
	j0, j1 := v("p0", ir.Uint32), v("p1", ir.Uint32)
	blk := v("blk", ir.Uint32)
	first := func() ir.Expr { return bin(ir.Add, load(sh, u32(0), 12), n) }
	triple := func() ir.Expr { return bin(ir.Mul, n, u32(3)) }
	k := kernel("barrier", []*ir.Array{in, out}, []*ir.Array{sh},
		forAll(ir.GridBlocks, blk, u32(2), 9,
			forAll(ir.BlockThreads, j0, u32(256), 10,
				store(sh, j0, load(in, bin(ir.Add, bin(ir.Mul, blk, u32(256)), j0), 10), 10)),
			sync(11),
			decl(a, first(), 12), decl(c, triple(), 12),
			sync(13),
			decl(b, first(), 14), decl(d, triple(), 14),
			forAll(ir.BlockThreads, j1, u32(256), 15,
				store(out, bin(ir.Add, bin(ir.Mul, blk, u32(256)), j1), bin(ir.Add, bin(ir.Add, a, b), bin(ir.Add, c, d)), 15))))
	k.Params = append(k.Params, ir.Param{Scalar: n})
	expectCount(t, k, "sh[0u] + n", 2, 2, 512, ir.UintValue(ir.Uint32, 5))
	expectCount(t, k, "n * 3u", 1, 2, 512, ir.UintValue(ir.Uint32, 5))
}

// TestCSESpeculatesOnlyWhatCannotFail checks what an operand evaluated only
// sometimes may have computed early: arithmetic, and a division by a
// divisor the statement divides by anyway; never a load, nor another
// division.
func TestCSESpeculatesOnlyWhatCannotFail(t *testing.T) {
	in, out := global("in", ir.Uint32, ir.Input, 2), global("out", ir.Uint32, ir.Output, 3)
	i, q, r := v("i", ir.Uint32), v("q", ir.Uint32), v("r", ir.Uint32)
	guarded := func(e func() ir.Expr) ir.Expr {
		// i < 100 ? e : e + 1: e only in the arms of a select
		return &ir.Select{Cond: bin(ir.Lt, i, u32(100)), Then: e(), Else: bin(ir.Add, e(), u32(1))}
	}
	for _, c := range []struct {
		name, text string
		value      ir.Expr
		want       int
	}{
		{"arithmetic", "i * 5u + q", guarded(func() ir.Expr { return bin(ir.Add, bin(ir.Mul, i, u32(5)), q) }), 1},
		{"load", "in[i]", guarded(func() ir.Expr { return load(in, i, 11) }), 2},
		{"division", "i / r", guarded(func() ir.Expr { return bin(ir.Div, i, r) }), 2},
		{"division by a divisor divided by", "i / q", bin(ir.Add, bin(ir.Rem, i, q),
			guarded(func() ir.Expr { return bin(ir.Div, i, q) })), 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := kernel("speculate", []*ir.Array{in, out}, nil, overAll(i, in, store(out, i, c.value, 11)))
			k.Params = append(k.Params, ir.Param{Scalar: q}, ir.Param{Scalar: r})
			expectCount(t, k, c.text, c.want, 2, 300, ir.UintValue(ir.Uint32, 3), ir.UintValue(ir.Uint32, 4))
		})
	}
	// With q = 0 both the kernel and its compiled copy fail, at its line.
	k := kernel("speculate", []*ir.Array{in, out}, nil, overAll(i, in, store(out, i, bin(ir.Add, bin(ir.Rem, i, q),
		guarded(func() ir.Expr { return bin(ir.Div, i, q) })), 11)))
	k.Params = append(k.Params, ir.Param{Scalar: q})
	_, c := mustCUDA(t, k)
	for _, kern := range []*ir.Kernel{k, c} {
		err := eval.Launch(kern, eval.Config{Blocks: 1}, evalArgs(kern, 10, 1, ir.UintValue(ir.Uint32, 0)))
		if err == nil || !strings.Contains(err.Error(), "kernel.go:11") {
			t.Errorf("a division by zero: %v, want a failure at kernel.go:11", err)
		}
	}
}

// TestCSELocalsAreDeclaredBeforeTheirUse checks the order of the locals of
// one statement: each after those it reads, also when one is first met
// where it is evaluated only sometimes, inside another; and their names in
// that order.
func TestCSELocalsAreDeclaredBeforeTheirUse(t *testing.T) {
	in, out := global("in", ir.Uint32, ir.Input, 2), global("out", ir.Uint32, ir.Output, 3)
	i, x := v("i", ir.Uint32), v("x", ir.Uint32)
	triple := func() ir.Expr { return bin(ir.Mul, i, u32(3)) }
	d := func() ir.Expr { // (i > 7 ? i*3 : 0) + 1
		return bin(ir.Add, &ir.Select{Cond: bin(ir.Gt, i, u32(7)), Then: triple(), Else: u32(0)}, u32(1))
	}
	// x = (d + d) + (i > 9 ? i*3 : 5): i*3 is first met in a select arm
	// inside d, which is computed always
	k := kernel("order", []*ir.Array{in, out}, nil, overAll(i, in,
		decl(x, bin(ir.Add, bin(ir.Add, d(), d()), &ir.Select{Cond: bin(ir.Gt, i, u32(9)), Then: triple(), Else: u32(5)}), 11),
		store(out, i, x, 12)))
	src, c := mustCUDA(t, k)
	sameResults(t, k, c, 2, 300)
	contains(t, src, "const unsigned int t0_ = i * 3u;\n    const unsigned int t1_ = (i > 7u ? t0_ : 0u) + 1u;\n",
		"const unsigned int x = t1_ + t1_ + (i > 9u ? t0_ : 5u);")
}

// TestCSENamesSkipTheKernelsNames checks that the locals' names are not
// names the kernel has: a variable named t0 makes its grid loop's counter
// t0_.
func TestCSENamesSkipTheKernelsNames(t *testing.T) {
	in, out := global("in", ir.Uint32, ir.Input, 2), global("out", ir.Uint32, ir.Output, 3)
	i := v("t0", ir.Uint32)
	k := kernel("names", []*ir.Array{in, out}, nil, overAll(i, in,
		store(out, i, bin(ir.Mul, bin(ir.Add, i, u32(1)), bin(ir.Add, i, u32(1))), 11)))
	src, c := mustCUDA(t, k)
	sameResults(t, k, c, 2, 300)
	contains(t, src, "for (unsigned long long t0_ = ", "const unsigned int t1_ = t0 + 1u;\n", "out[t0] = t1_ * t1_;")
	if strings.Contains(src, "const unsigned int t0_") {
		t.Errorf("a local is named like the loop counter:\n%s", src)
	}
}
