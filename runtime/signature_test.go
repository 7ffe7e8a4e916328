package runtime_test

import (
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

func TestSignatureOf(t *testing.T) {
	got := runtime.SignatureOf(mixScalars()).String()
	if want := "(out []int64, x int64, flag bool, y int32)"; got != want {
		t.Errorf("signature %s, want %s", got, want)
	}
}

func TestLaunchChecksArguments(t *testing.T) {
	for _, d := range devicesForTest(t) {
		t.Run(d.Name(), func(t *testing.T) {
			f := must(d.Load(mixScalars()))(t)
			out := must(runtime.Alloc[int64](d, 10))(t)
			wrong := must(runtime.Alloc[int32](d, 10))(t)
			other := must(runtime.Alloc[int64](runtime.CPU(), 10))(t)
			var nilBuf *runtime.Buffer[int64]
			for _, c := range []struct {
				args []any
				want string
			}{
				{[]any{out, int64(1), true}, "takes 4 arguments, got 3"},
				{[]any{int64(1), int64(1), true, int32(2)}, "argument 0 (out []int64): want a buffer of int64, got int64"},
				{[]any{wrong, int64(1), true, int32(2)}, "want a buffer of int64, got a buffer of int32"},
				{[]any{other, int64(1), true, int32(2)}, "the buffer is on CPU evaluator"},
				{[]any{nilBuf, int64(1), true, int32(2)}, "nil buffer"},
				{[]any{out, out, true, int32(2)}, "argument 1 (x int64): want a scalar of int64, got a buffer of int64"},
				{[]any{out, 1, true, int32(2)}, "want a scalar of int64, got int"},
				{[]any{out, int64(1), true, uint32(2)}, "argument 3 (y int32): want a scalar of int32, got uint32"},
				{[]any{out.View(5, 6), int64(1), true, int32(2)}, "out of range"},
			} {
				err := d.Launch(f, runtime.LaunchConfig{}, c.args...)
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("Launch(%T...) = %v, want an error containing %q", c.args[0], err, c.want)
				}
			}
			if err := d.Launch(f, runtime.LaunchConfig{Blocks: -1}, out, int64(1), true, int32(2)); err == nil {
				t.Error("launching -1 blocks succeeded")
			}
			if err := out.Free(); err != nil {
				t.Fatal(err)
			}
			if err := d.Launch(f, runtime.LaunchConfig{}, out, int64(1), true, int32(2)); err == nil || !strings.Contains(err.Error(), "freed") {
				t.Errorf("launching on freed memory: %v", err)
			}
		})
	}
}

func TestLaunchRejectsForeignFunctionsAndStreams(t *testing.T) {
	a, b := runtime.CPU(), runtime.CPU()
	f := must(a.Load(vectorAdd()))(t)
	x := must(runtime.Alloc[float32](b, 4))(t)
	if err := b.Launch(f, runtime.LaunchConfig{}, x, x, x); err == nil || !strings.Contains(err.Error(), "not loaded there") {
		t.Errorf("launching another device's function: %v", err)
	}
	s := must(a.NewStream())(t)
	if err := b.Launch(must(b.Load(vectorAdd()))(t), runtime.LaunchConfig{Stream: s}, x, x, x); err == nil || !strings.Contains(err.Error(), "stream") {
		t.Errorf("launching on another device's stream: %v", err)
	}
}

func TestWithLengthsReplacesOnlyParameterLengths(t *testing.T) {
	a := global("a", ir.Uint32, ir.Input)
	other := global("other", ir.Uint32, ir.Input)
	e := bin(ir.Add, blocksFor(a, 256), &ir.Len{Array: other})
	got := runtime.WithLengths(e, map[*ir.Array]uint32{a: 1000})
	var lens, consts int
	ir.WalkExpr(got, func(x ir.Expr) {
		switch x := x.(type) {
		case *ir.Len:
			lens++
			if x.Array != other {
				t.Errorf("Len of %s left in place", x.Array.Name)
			}
		case *ir.Const:
			if x.Value.Bits == 1000 {
				consts++
			}
		}
	})
	if lens != 1 || consts != 1 {
		t.Errorf("%d Len and %d constants 1000 after substitution, want 1 and 1", lens, consts)
	}
}
