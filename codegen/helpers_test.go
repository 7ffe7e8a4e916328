package codegen

import (
	"errors"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// Small constructors for hand-built IR.

func at(line int) ir.Pos { return ir.Pos{File: "kernel.go", Line: line} }

func u32(v uint64) *ir.Const { return &ir.Const{Value: ir.UintValue(ir.Uint32, v)} }

func i32(v int64) *ir.Const { return &ir.Const{Value: ir.IntValue(ir.Int32, v)} }

func val(v ir.Value) *ir.Const { return &ir.Const{Value: v} }

func bin(op ir.BinOp, x, y ir.Expr) *ir.Binary { return &ir.Binary{Op: op, X: x, Y: y} }

func v(name string, t ir.Type) *ir.Var { return &ir.Var{Name: name, T: t} }

func global(name string, t ir.Type, acc ir.Access, line int) *ir.Array {
	return &ir.Array{Name: name, Elem: t, Space: ir.Global, Access: acc, Pos: at(line)}
}

func shared(name string, t ir.Type, n, line int) *ir.Array {
	return &ir.Array{Name: name, Elem: t, Space: ir.Shared, Access: ir.ReadWrite, Size: n, Pos: at(line)}
}

func load(a *ir.Array, i ir.Expr, line int) *ir.Load {
	return &ir.Load{Array: a, Index: i, Pos: at(line)}
}

func store(a *ir.Array, i, x ir.Expr, line int) *ir.Store {
	return &ir.Store{Array: a, Index: i, Value: x, Pos: at(line)}
}

func forAll(k ir.ForAllKind, i *ir.Var, n ir.Expr, line int, body ...ir.Stmt) *ir.ForAll {
	return &ir.ForAll{Kind: k, Var: i, Count: n, Body: body, Pos: at(line)}
}

func sync(line int) *ir.Sync { return &ir.Sync{Level: ir.BlockLevel, Pos: at(line)} }

func decl(x *ir.Var, e ir.Expr, line int) *ir.Decl { return &ir.Decl{Var: x, Init: e, Pos: at(line)} }

// blocks is a GridBlocks ForAll over n virtual blocks, index "blk".
func blocks(n uint64, line int, body ...ir.Stmt) *ir.ForAll {
	return forAll(ir.GridBlocks, v("blk", ir.Uint32), u32(n), line, body...)
}

// kernel makes a kernel of 256 threads with the given arrays as parameters.
func kernel(name string, params []*ir.Array, shared []*ir.Array, body ...ir.Stmt) *ir.Kernel {
	k := &ir.Kernel{Name: name, Threads: 256, Shared: shared, Body: body, Pos: at(1)}
	for _, a := range params {
		k.Params = append(k.Params, ir.Param{Array: a})
	}
	return k
}

// gridCopy is for all i < in_len: out[i] = f(in[i]).
func gridCopy(name string, t ir.Type, f func(ir.Expr) ir.Expr) *ir.Kernel {
	in, out := global("in", t, ir.Input, 2), global("out", t, ir.Output, 3)
	i := v("i", ir.Uint32)
	return kernel(name, []*ir.Array{in, out}, nil,
		forAll(ir.GridThreads, i, &ir.Len{Array: in}, 10,
			store(out, i, f(load(in, i, 11)), 11)))
}

// pingPong is three Compute steps through shared memory: A, then B from
// A, then C from B, each followed by a barrier; the result goes to out.
func pingPong() (*ir.Kernel, []*ir.Array) {
	in, out := global("in", ir.Uint32, ir.Input, 2), global("out", ir.Uint32, ir.Output, 3)
	a, b, c := shared("a", ir.Uint32, 256, 4), shared("b", ir.Uint32, 256, 5), shared("c", ir.Uint32, 256, 6)
	i0, i1, i2, i3 := v("i0", ir.Uint32), v("i1", ir.Uint32), v("i2", ir.Uint32), v("i3", ir.Uint32)
	step := func(i *ir.Var, dst, src *ir.Array, line int) *ir.ForAll {
		return forAll(ir.BlockThreads, i, u32(256), line,
			store(dst, i, bin(ir.Add, load(src, i, line), u32(1)), line))
	}
	return kernel("pingpong", []*ir.Array{in, out}, []*ir.Array{a, b, c},
		blocks(4, 9,
			step(i0, a, in, 10), sync(11),
			step(i1, b, a, 12), sync(13),
			step(i2, c, b, 14), sync(15),
			forAll(ir.BlockThreads, i3, u32(256), 16, store(out, i3, load(c, i3, 16), 16))),
	), []*ir.Array{a, b, c}
}

// mustCUDA compiles and prints k, failing the test on an error.
func mustCUDA(t *testing.T, k *ir.Kernel) (string, *ir.Kernel) {
	t.Helper()
	src, c, err := CUDA(k)
	if err != nil {
		t.Fatalf("CUDA(%s): %v", k.Name, err)
	}
	return src, c
}

// contains fails unless src contains every one of want.
func contains(t *testing.T, src string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(src, w) {
			t.Errorf("the CUDA lacks %q:\n%s", w, src)
		}
	}
}

// verifyErrors returns the *ir.Error values of Verify(k).
func verifyErrors(k *ir.Kernel) []*ir.Error {
	err := Verify(k, DefaultTarget)
	if err == nil {
		return nil
	}
	var out []*ir.Error
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		for _, e := range joined.Unwrap() {
			var ie *ir.Error
			if errors.As(e, &ie) {
				out = append(out, ie)
			}
		}
	}
	return out
}
