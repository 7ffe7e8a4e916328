package codegen

import (
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// twoArrays builds a block program that writes and reads x, then y, with
// what is given between them, and returns the compiled offsets of x and y.
func twoArrays(t *testing.T, between ...ir.Stmt) (int, int) {
	t.Helper()
	out := global("out", ir.Uint32, ir.Output, 2)
	x, y := shared("x", ir.Uint32, 256, 3), shared("y", ir.Uint32, 64, 4)
	i := func(n string) *ir.Var { return v(n, ir.Uint32) }
	i1, i2, i3, i4 := i("i1"), i("i2"), i("i3"), i("i4")
	body := []ir.Stmt{
		forAll(ir.BlockThreads, i1, u32(256), 10, store(x, i1, i1, 10)),
		sync(11),
		forAll(ir.BlockThreads, i2, u32(256), 12, store(out, i2, load(x, i2, 12), 12)),
	}
	body = append(body, between...)
	body = append(body,
		forAll(ir.BlockThreads, i3, u32(64), 14, store(y, i3, i3, 14)),
		sync(15),
		forAll(ir.BlockThreads, i4, u32(64), 16, store(out, i4, load(y, i4, 16), 16)))
	_, c := mustCUDA(t, kernel("two", []*ir.Array{out}, []*ir.Array{x, y}, blocks(1, 9, body...)))
	return c.Shared[0].Offset, c.Shared[1].Offset
}

func TestLayoutReusesBytesAfterABarrier(t *testing.T) {
	if x, y := twoArrays(t, sync(13)); x != y {
		t.Errorf("arrays separated by a barrier at offsets %d and %d, want one offset", x, y)
	}
}

func TestLayoutDoesNotReuseWithoutABarrier(t *testing.T) {
	if x, y := twoArrays(t); y < x+1024 {
		t.Errorf("arrays with no barrier between them at offsets %d and %d", x, y)
	}
}

func TestLayoutDoesNotCountAConditionalBarrier(t *testing.T) {
	n := v("flag", ir.Bool)
	cond := &ir.If{Cond: n, Then: []ir.Stmt{sync(13)}, Pos: at(13)}
	out := global("out", ir.Uint32, ir.Output, 2)
	x, y := twoArraysWithParam(t, out, n, cond)
	if y < x+1024 {
		t.Errorf("a barrier that may not run lets arrays share bytes: offsets %d and %d", x, y)
	}
}

func twoArraysWithParam(t *testing.T, out *ir.Array, flag *ir.Var, between ...ir.Stmt) (int, int) {
	t.Helper()
	x, y := shared("x", ir.Uint32, 256, 3), shared("y", ir.Uint32, 64, 4)
	i1, i2, i3 := v("i1", ir.Uint32), v("i2", ir.Uint32), v("i3", ir.Uint32)
	body := []ir.Stmt{
		forAll(ir.BlockThreads, i1, u32(256), 10, store(x, i1, i1, 10)),
		sync(11),
		forAll(ir.BlockThreads, i2, u32(256), 12, store(y, i2, load(x, i2, 12), 12)),
	}
	body = append(body, between...)
	body = append(body, forAll(ir.BlockThreads, i3, u32(64), 14, store(out, i3, load(y, i3, 14), 14)))
	k := kernel("cond", []*ir.Array{out}, []*ir.Array{x, y}, blocks(1, 9, body...))
	k.Params = append(k.Params, ir.Param{Scalar: flag})
	_, c := mustCUDA(t, k)
	return c.Shared[0].Offset, c.Shared[1].Offset
}

func TestLayoutOverlappingLifetimesDoNotShare(t *testing.T) {
	out := global("out", ir.Uint32, ir.Output, 2)
	x, y := twoArraysWithParam(t, out, v("flag", ir.Bool), sync(13))
	if x == y {
		t.Errorf("x is read while y is written, yet both are at offset %d", x)
	}
}

func TestLayoutPingPong(t *testing.T) {
	k, _ := pingPong()
	_, c := mustCUDA(t, k)
	a, b, cc := c.Shared[0], c.Shared[1], c.Shared[2]
	if a.Offset != 0 || b.Offset != 1024 || cc.Offset != a.Offset || c.SharedBytes != 2048 {
		t.Errorf("offsets a=%d b=%d c=%d, %d bytes; want 0, 1024, 0, 2048", a.Offset, b.Offset, cc.Offset, c.SharedBytes)
	}
}

func TestLayoutOffsetsAreAligned(t *testing.T) {
	out := global("out", ir.Uint32, ir.Output, 2)
	x, y := shared("x", ir.Bool, 3, 3), shared("y", ir.Float64, 2, 4)
	i := v("i", ir.Uint32)
	k := kernel("aligned", []*ir.Array{out}, []*ir.Array{x, y}, blocks(1, 9,
		forAll(ir.BlockThreads, i, u32(2), 10,
			store(x, i, ir.Expr(&ir.Const{Value: ir.BoolValue(true)}), 10),
			store(y, i, &ir.Convert{To: ir.Float64, X: load(x, i, 11)}, 11),
			store(out, i, &ir.Convert{To: ir.Uint32, X: load(y, i, 12)}, 12))))
	_, c := mustCUDA(t, k)
	if c.Shared[1].Offset != 16 || c.SharedBytes != 32 {
		t.Errorf("y at %d, %d bytes; want 16 and 32", c.Shared[1].Offset, c.SharedBytes)
	}
}

// In a loop, y's bytes are written again by x in the next iteration: a
// barrier must separate y's last use from x's next first use too.
func TestLayoutInLoopsNeedsABarrierBeforeTheNextIteration(t *testing.T) {
	offsets := func(trailing bool) (int, int) {
		out := global("out", ir.Uint32, ir.Output, 2)
		x, y := shared("x", ir.Uint32, 64, 3), shared("y", ir.Uint32, 64, 4)
		i1, i2, i3, i4, r := v("i1", ir.Uint32), v("i2", ir.Uint32), v("i3", ir.Uint32), v("i4", ir.Uint32),
			v("r", ir.Uint32)
		loop := &ir.For{Var: r, Count: u32(4), Pos: at(10), Body: []ir.Stmt{
			forAll(ir.BlockThreads, i1, u32(64), 11, store(x, i1, r, 11)), sync(12),
			forAll(ir.BlockThreads, i2, u32(64), 13, store(out, i2, load(x, i2, 13), 13)), sync(14),
			forAll(ir.BlockThreads, i3, u32(64), 15, store(y, i3, r, 15)), sync(16),
			forAll(ir.BlockThreads, i4, u32(64), 17, store(out, i4, load(y, i4, 17), 17)),
		}}
		if trailing {
			loop.Body = append(loop.Body, sync(18))
		}
		_, c := mustCUDA(t, kernel("loop", []*ir.Array{out}, []*ir.Array{x, y}, blocks(1, 9, loop)))
		return c.Shared[0].Offset, c.Shared[1].Offset
	}
	if x, y := offsets(false); x == y {
		t.Errorf("without a barrier at the end of the loop, x and y share offset %d", x)
	}
	if x, y := offsets(true); x != y {
		t.Errorf("with barriers between them in both directions, x and y are at offsets %d and %d", x, y)
	}
}

// In a loop whose iterations are separated by barriers, x may share y's
// bytes only when each iteration writes the whole of x before reading it:
// a write of x that an If may skip, or one that covers part of x, leaves
// the previous iteration's x to be read, which y overwrote.
func TestLayoutInLoopsKeepsAnArrayNotWrittenWholeEachIteration(t *testing.T) {
	offsets := func(first func(x *ir.Array, i, r *ir.Var) ir.Stmt) (int, int) {
		out := global("out", ir.Uint32, ir.Output, 2)
		x, y := shared("x", ir.Uint32, 64, 3), shared("y", ir.Uint32, 64, 4)
		i1, i2, i3, i4, r := v("i1", ir.Uint32), v("i2", ir.Uint32), v("i3", ir.Uint32), v("i4", ir.Uint32),
			v("r", ir.Uint32)
		loop := &ir.For{Var: r, Count: u32(4), Pos: at(10), Body: []ir.Stmt{
			first(x, i1, r), sync(12),
			forAll(ir.BlockThreads, i2, u32(64), 13, store(out, i2, load(x, i2, 13), 13)), sync(14),
			forAll(ir.BlockThreads, i3, u32(64), 15, store(y, i3, r, 15)), sync(16),
			forAll(ir.BlockThreads, i4, u32(64), 17, store(out, i4, load(y, i4, 17), 17)), sync(18),
		}}
		_, c := mustCUDA(t, kernel("loop", []*ir.Array{out}, []*ir.Array{x, y}, blocks(1, 9, loop)))
		return c.Shared[0].Offset, c.Shared[1].Offset
	}
	whole := func(x *ir.Array, i, r *ir.Var) ir.Stmt {
		return forAll(ir.BlockThreads, i, u32(64), 11, store(x, i, r, 11))
	}
	for _, c := range []struct {
		name  string
		first func(x *ir.Array, i, r *ir.Var) ir.Stmt
		share bool
	}{
		{"the whole array each iteration", whole, true},
		{"in the first iteration only", func(x *ir.Array, i, r *ir.Var) ir.Stmt {
			return &ir.If{Cond: bin(ir.Eq, r, u32(0)), Then: []ir.Stmt{whole(x, i, r)}, Pos: at(11)}
		}, false},
		{"half the array", func(x *ir.Array, i, r *ir.Var) ir.Stmt {
			return forAll(ir.BlockThreads, i, u32(32), 11, store(x, i, r, 11))
		}, false},
		{"at an index other than the thread's", func(x *ir.Array, i, r *ir.Var) ir.Stmt {
			return forAll(ir.BlockThreads, i, u32(64), 11, store(x, bin(ir.Div, i, u32(2)), r, 11))
		}, false},
	} {
		if x, y := offsets(c.first); (x == y) != c.share {
			t.Errorf("x written %s: x at %d, y at %d; want shared bytes %t", c.name, x, y, c.share)
		}
	}
}

func TestLayoutOverTheLimit(t *testing.T) {
	k, arrays := pingPong()
	err := Verify(k, Target{MaxSharedBytes: 1500})
	if err == nil {
		t.Fatal("2048 bytes of shared memory pass a limit of 1500")
	}
	if !strings.Contains(err.Error(), arrays[1].Pos.String()+": shared memory: array b ends at byte 2048") ||
		!strings.Contains(err.Error(), "limit of 1500 bytes") {
		t.Errorf("error %q does not name array b, its end and the limit", err)
	}
	if _, err := Compile(k, Target{MaxSharedBytes: 1500}); err == nil {
		t.Error("Compile accepts a kernel over the limit")
	}
}

// armsKernel returns a kernel whose block-level If (of condition cond, in a
// block-level For of two rounds when looped) writes x in its then arm and y
// in its else arm, with no barrier between them, and the offsets of x and
// y. When cond is uniform, each arm also reads its array back after a
// barrier.
func armsKernel(t *testing.T, cond func(flag *ir.Var) ir.Expr, uniform, looped bool) (int, int) {
	t.Helper()
	out := global("out", ir.Uint32, ir.Output, 2)
	x, y := shared("x", ir.Uint32, 256, 3), shared("y", ir.Uint32, 64, 4)
	flag := v("flag", ir.Bool)
	i1, i2, i3, i4 := v("i1", ir.Uint32), v("i2", ir.Uint32), v("i3", ir.Uint32), v("i4", ir.Uint32)
	arm := func(a *ir.Array, n uint64, i, j *ir.Var, line int) []ir.Stmt {
		if !uniform { // no barrier under a condition the threads may not share
			return []ir.Stmt{forAll(ir.BlockThreads, i, u32(n), line, store(a, i, i, line))}
		}
		return []ir.Stmt{forAll(ir.BlockThreads, i, u32(n), line, store(a, i, i, line)), sync(line + 1),
			forAll(ir.BlockThreads, j, u32(n), line+2, store(out, j, load(a, j, line+2), line+2))}
	}
	var stmt ir.Stmt = &ir.If{Cond: cond(flag), Pos: at(10), Then: arm(x, 256, i1, i2, 11), Else: arm(y, 64, i3, i4, 14)}
	if looped {
		stmt = &ir.For{Var: v("r", ir.Uint32), Count: u32(2), Pos: at(9), Body: []ir.Stmt{stmt}}
	}
	k := kernel("arms", []*ir.Array{out}, []*ir.Array{x, y}, blocks(1, 8, stmt))
	k.Params = append(k.Params, ir.Param{Scalar: flag})
	_, c := mustCUDA(t, k)
	return c.Shared[0].Offset, c.Shared[1].Offset
}

// A block runs one arm of an If whose condition every thread shares, so
// that arrays of opposite arms share bytes with no barrier between them;
// not when a loop may run one arm, then the other, or when the threads may
// take different arms.
func TestLayoutSharesBytesBetweenTheArmsOfAUniformIf(t *testing.T) {
	flag := func(flag *ir.Var) ir.Expr { return flag }
	if x, y := armsKernel(t, flag, true, false); x != y {
		t.Errorf("arrays of opposite arms of a uniform If at offsets %d and %d, want one offset", x, y)
	}
	if x, y := armsKernel(t, flag, true, true); x == y {
		t.Errorf("arrays of opposite arms of an If in a loop share offset %d with no barrier between rounds", x)
	}
	perThread := func(*ir.Var) ir.Expr {
		return &ir.Binary{Op: ir.Lt, X: &ir.Special{Kind: ir.ThreadIdx}, Y: u32(32)}
	}
	if x, y := armsKernel(t, perThread, false, false); x == y {
		t.Errorf("arrays of opposite arms of an If whose threads may differ share offset %d", x)
	}
}
