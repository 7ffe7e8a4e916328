package eval

import (
	"slices"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// reverseKernel reverses each chunk of 64 elements through shared memory;
// with withSync false it forgets the barrier between writing and reading,
// with trailingSync false the one between one chunk's reads and the next
// chunk's writes when a block does several chunks.
func reverseKernel(withSync, trailingSync bool) *ir.Kernel {
	in, out := global("in", ir.Uint32, ir.Input), global("out", ir.Uint32, ir.Output)
	sh := shared("sh", ir.Uint32, 64)
	vb, i, j := index("vb"), index("i"), index("j")
	block := []ir.Stmt{
		forAll(ir.BlockThreads, i, u32(64), 11, st(sh, i, ld(in, add(mul(vb, u32(64)), i), 12), 12)),
		forAll(ir.BlockThreads, j, u32(64), 14, st(out, add(mul(vb, u32(64)), j), ld(sh, sub(u32(63), j), 15), 15)),
	}
	if withSync {
		block = slices.Insert(block, 1, sync(ir.BlockLevel, 13))
	}
	if trailingSync {
		block = append(block, sync(ir.BlockLevel, 16))
	}
	chunks := bin(ir.Div, &ir.Len{Array: in}, u32(64))
	return kernel(64, []*ir.Array{in, out}, []*ir.Array{sh}, forAll(ir.GridBlocks, vb, chunks, 10, block...))
}

func iota32(n int) *Buffer {
	b := NewBuffer(ir.Uint32, n)
	for i := range n {
		b.Set(i, valueOf(uint32(i)))
	}
	return b
}

func TestReverseThroughShared(t *testing.T) {
	for _, blocks := range []int{16, 3} {
		in, out := iota32(1024), NewBuffer(ir.Uint32, 1024)
		if err := Launch(reverseKernel(true, true), Config{Blocks: blocks}, bufArgs(in, out)); err != nil {
			t.Fatal(err)
		}
		for i, x := range u32s(out) {
			if want := uint32(i/64*64 + 63 - i%64); x != want {
				t.Fatalf("%d blocks: out[%d] = %d, want %d", blocks, i, x, want)
			}
		}
	}
}

// A block-stride loop over chunks that reuse shared memory is safe without
// a barrier of its own: every pass ends with one, as codegen prints it.
func TestBlockStrideLoopEndsPassesWithBarrier(t *testing.T) {
	in, out := iota32(1024), NewBuffer(ir.Uint32, 1024)
	if err := Launch(reverseKernel(true, false), Config{Blocks: 3}, bufArgs(in, out)); err != nil {
		t.Fatal(err)
	}
	for i, x := range u32s(out) {
		if want := uint32(i/64*64 + 63 - i%64); x != want {
			t.Fatalf("out[%d] = %d, want %d", i, x, want)
		}
	}
}

func TestReverseWithoutSyncRaces(t *testing.T) {
	err := Launch(reverseKernel(false, true), Config{Blocks: 2}, bufArgs(iota32(256), NewBuffer(ir.Uint32, 256)))
	wantError(t, err, "user.go:15", "data race on sh[", "read by thread", "a write by thread", "user.go:12")
}

// histogramKernel counts keys into hist, with an atomic or with a plain
// read-modify-write.
func histogramKernel(atomic bool) *ir.Kernel {
	keys, hist := global("keys", ir.Uint32, ir.Input), global("hist", ir.Uint32, ir.ReadWrite)
	i := index("i")
	key := ld(keys, i, 20)
	var update ir.Stmt = &ir.Atomic{Op: ir.AtomicAdd, Array: hist, Index: key, Value: u32(1), Pos: at(21)}
	if !atomic {
		update = st(hist, key, add(ld(hist, key, 21), u32(1)), 21)
	}
	return kernel(64, []*ir.Array{keys, hist}, nil, forAll(ir.GridThreads, i, &ir.Len{Array: keys}, 19, update))
}

func TestHistogramWithAtomics(t *testing.T) {
	keys, hist := NewBuffer(ir.Uint32, 1000), NewBuffer(ir.Uint32, 16)
	want := make([]uint32, 16)
	for i := range 1000 {
		k := uint32(i*7%13 + i%3)
		keys.Set(i, valueOf(k))
		want[k]++
	}
	if err := Launch(histogramKernel(true), Config{Blocks: 5}, bufArgs(keys, hist)); err != nil {
		t.Fatal(err)
	}
	if got := u32s(hist); !slices.Equal(got, want) {
		t.Fatalf("hist = %v, want %v", got, want)
	}
}

func TestHistogramWithPlainWritesRaces(t *testing.T) {
	keys := u32Buffer(1, 2, 3, 1, 5, 6)
	err := Launch(histogramKernel(false), Config{Blocks: 1}, bufArgs(keys, NewBuffer(ir.Uint32, 16)))
	wantError(t, err, "user.go:21", "data race on hist[1]", "write by thread 0 of block 0", "reads by other threads")
}

// occursKernel stores 1 at every key's index.
func occursKernel(sameValue bool) *ir.Kernel {
	keys, occ := global("keys", ir.Uint32, ir.Input), global("occ", ir.Uint32, ir.Output)
	i := index("i")
	store := &ir.Store{Array: occ, Index: ld(keys, i, 30), Value: u32(1), SameValue: sameValue, Pos: at(30)}
	return kernel(32, []*ir.Array{keys, occ}, nil, forAll(ir.GridThreads, i, &ir.Len{Array: keys}, 29, store))
}

func TestOccurs(t *testing.T) {
	keys := NewBuffer(ir.Uint32, 300)
	for i := range 300 {
		keys.Set(i, valueOf(uint32(i%7*3)))
	}
	occ := NewBuffer(ir.Uint32, 21)
	if err := Launch(occursKernel(true), Config{Blocks: 4}, bufArgs(keys, occ)); err != nil {
		t.Fatalf("SameValue stores: %v", err)
	}
	for i, x := range u32s(occ) {
		if want := uint32(0); i%3 == 0 {
			want = 1
			if x != want {
				t.Fatalf("occ[%d] = %d, want %d", i, x, want)
			}
		}
	}
	err := Launch(occursKernel(false), Config{Blocks: 4}, bufArgs(keys, NewBuffer(ir.Uint32, 21)))
	wantError(t, err, "user.go:30", "data race on occ[0]")
}

func TestSameValueStoresOfDifferentValuesRace(t *testing.T) {
	out := global("out", ir.Uint32, ir.Output)
	i := index("i")
	store := &ir.Store{Array: out, Index: u32(0), Value: i, SameValue: true, Pos: at(33)}
	k := kernel(32, []*ir.Array{out}, nil, forAll(ir.BlockThreads, i, u32(2), 32, store))
	wantError(t, Launch(k, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Uint32, 1))), "user.go:33", "data race on out[0]")
}

func TestAccessesFromDifferentBlocksRace(t *testing.T) {
	out := global("out", ir.Uint32, ir.Output)
	k := kernel(32, []*ir.Array{out}, nil, st(out, u32(0), special(ir.BlockIdx), 35))
	err := Launch(k, Config{Blocks: 2}, bufArgs(NewBuffer(ir.Uint32, 1)))
	wantError(t, err, "user.go:35", "data race on out[0]", "another block")
}

// warpSumKernel sums each warp's 32 inputs with shuffles of the given mode
// (Down: the sum lands in lane 0; Xor: in every lane) and writes lane
// sums to out.
func warpSumKernel(mode ir.ShuffleMode) *ir.Kernel {
	in, out := global("in", ir.Int32, ir.Input), global("out", ir.Int32, ir.Output)
	i, step, x, y := index("i"), index("step"), &ir.Var{Name: "x", T: ir.Int32}, &ir.Var{Name: "y", T: ir.Int32}
	body := []ir.Stmt{
		decl(x, ld(in, i, 40), 40),
		decl(y, konst(int32(0)), 41),
		&ir.For{Var: step, Count: u32(5), Pos: at(42), Body: []ir.Stmt{
			&ir.Shuffle{Mode: mode, Result: y, Value: x, Lane: bin(ir.Shr, u32(16), step), Pos: at(43)},
			&ir.Assign{Var: x, Value: add(x, y), Pos: at(44)},
		}},
		st(out, i, x, 45),
	}
	return kernel(64, []*ir.Array{in, out}, nil, forAll(ir.BlockThreads, i, &ir.Len{Array: in}, 39, body...))
}

func TestWarpShuffleReduction(t *testing.T) {
	in := NewBuffer(ir.Int32, 128)
	sums := make([]int32, 4)
	for i := range 128 {
		v := int32(i*i%17 - 8)
		in.Set(i, valueOf(v))
		sums[i/32] += v
	}
	for _, mode := range []ir.ShuffleMode{ir.ShuffleDown, ir.ShuffleXor} {
		out := NewBuffer(ir.Int32, 128)
		if err := Launch(warpSumKernel(mode), Config{Blocks: 1}, bufArgs(in, out)); err != nil {
			t.Fatal(err)
		}
		for i := range 128 {
			if mode == ir.ShuffleDown && i%32 != 0 {
				continue
			}
			if got := int32(out.Get(i).Int()); got != sums[i/32] {
				t.Fatalf("mode %d: out[%d] = %d, want %d", mode, i, got, sums[i/32])
			}
		}
	}
}

func TestShuffleWithInactiveLanes(t *testing.T) {
	in, out := NewBuffer(ir.Int32, 48), NewBuffer(ir.Int32, 48)
	err := Launch(warpSumKernel(ir.ShuffleXor), Config{Blocks: 1}, bufArgs(in, out))
	wantError(t, err, "user.go:43", "shuffle executed with inactive lanes")
}

// TestShuffleOutsideWarp checks that a lane, mask or delta outside 0 to 31
// is an error naming the operand: the GPU would take its low five bits,
// so a delta of 33 would act as 1 there.
func TestShuffleOutsideWarp(t *testing.T) {
	for _, tt := range []struct {
		mode ir.ShuffleMode
		lane ir.Expr
		want string
	}{
		{ir.ShuffleIdx, add(special(ir.LaneIdx), u32(1)), "the lane 32"},
		{ir.ShuffleXor, u32(32), "the mask 32"},
		{ir.ShuffleUp, u32(32), "the delta 32"},
		{ir.ShuffleDown, u32(33), "the delta 33"},
		{ir.ShuffleUp, &ir.Const{Value: ir.IntValue(ir.Int32, -1)}, "the delta -1"},
	} {
		out := global("out", ir.Uint32, ir.Output)
		i, y := index("i"), index("y")
		k := kernel(32, []*ir.Array{out}, nil, forAll(ir.BlockThreads, i, u32(32), 50,
			&ir.Shuffle{Mode: tt.mode, Result: y, Value: i, Lane: tt.lane, Pos: at(51)}, st(out, i, y, 52)))
		err := Launch(k, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Uint32, 32)))
		wantError(t, err, "user.go:51", tt.want+": want 0 to 31")
	}
}

func TestShuffleUpKeepsOwnValueAtTheEdge(t *testing.T) {
	out := global("out", ir.Uint32, ir.Output)
	i, y := index("i"), index("y")
	k := kernel(32, []*ir.Array{out}, nil, forAll(ir.BlockThreads, i, u32(32), 50,
		&ir.Shuffle{Mode: ir.ShuffleUp, Result: y, Value: mul(i, u32(10)), Lane: u32(3), Pos: at(51)},
		st(out, i, y, 52)))
	buf := NewBuffer(ir.Uint32, 32)
	if err := Launch(k, Config{Blocks: 1}, bufArgs(buf)); err != nil {
		t.Fatal(err)
	}
	for l, x := range u32s(buf) {
		if want := uint32(10 * max(l-3, l*(1-min(l/3, 1)))); l >= 3 && x != uint32(10*(l-3)) || l < 3 && x != want {
			t.Fatalf("lane %d got %d", l, x)
		}
	}
}

func TestBallot(t *testing.T) {
	in, out := global("in", ir.Uint32, ir.Input), global("out", ir.Uint32, ir.Output)
	i, b := index("i"), index("b")
	k := kernel(64, []*ir.Array{in, out}, nil, forAll(ir.BlockThreads, i, u32(64), 60,
		&ir.Ballot{Result: b, Pred: bin(ir.Gt, ld(in, i, 61), u32(10)), Pos: at(61)},
		&ir.If{Cond: bin(ir.Eq, special(ir.LaneIdx), u32(0)), Pos: at(62),
			Then: []ir.Stmt{st(out, bin(ir.Div, i, u32(32)), b, 63)}}))
	inBuf, want := NewBuffer(ir.Uint32, 64), []uint32{0, 0}
	for i := range 64 {
		v := uint32(i * 37 % 23)
		inBuf.Set(i, valueOf(v))
		if v > 10 {
			want[i/32] |= 1 << (i % 32)
		}
	}
	outBuf := NewBuffer(ir.Uint32, 2)
	if err := Launch(k, Config{Blocks: 1}, bufArgs(inBuf, outBuf)); err != nil {
		t.Fatal(err)
	}
	if got := u32s(outBuf); !slices.Equal(got, want) {
		t.Fatalf("ballots %x, want %x", got, want)
	}
}

func TestOutOfBoundsStoreInLastBlock(t *testing.T) {
	in, out := global("in", ir.Uint32, ir.Input), global("out", ir.Uint32, ir.Output)
	vb, i := index("vb"), index("i")
	// The user rounded the block count up but forgot to guard the store.
	k := kernel(32, []*ir.Array{in, out}, nil, forAll(ir.GridBlocks, vb, u32(4), 70,
		forAll(ir.BlockThreads, i, u32(32), 71, st(out, add(mul(vb, u32(32)), i), ld(in, i, 72), 72))))
	err := Launch(k, Config{Blocks: 2}, bufArgs(iota32(32), NewBuffer(ir.Uint32, 100)))
	wantError(t, err, "user.go:72", "write to out[100] out of bounds (length 100)")
}

func TestBarrierUnderThreadDependentCondition(t *testing.T) {
	out := global("out", ir.Uint32, ir.Output)
	tid, i := index("tid"), index("i")
	k := kernel(64, []*ir.Array{out}, nil,
		decl(tid, special(ir.ThreadIdx), 80),
		&ir.If{Cond: bin(ir.Lt, tid, u32(16)), Pos: at(81), Then: []ir.Stmt{sync(ir.BlockLevel, 82)}},
		forAll(ir.BlockThreads, i, u32(64), 83, st(out, i, i, 83)))
	err := Launch(k, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Uint32, 64)))
	wantError(t, err, "user.go:82", "barrier reached by only some threads")

	n := &ir.Var{Name: "n", T: ir.Uint32}
	uniform := kernel(64, []*ir.Array{out}, nil,
		&ir.If{Cond: bin(ir.Lt, n, u32(16)), Pos: at(85), Then: []ir.Stmt{sync(ir.BlockLevel, 86)}})
	uniform.Params = append(uniform.Params, ir.Param{Scalar: n})
	args := append(bufArgs(NewBuffer(ir.Uint32, 64)), Arg{Scalar: valueOf(uint32(3))})
	if err := Launch(uniform, Config{Blocks: 1}, args); err != nil {
		t.Fatalf("barrier under a uniform condition: %v", err)
	}
}

func TestVirtualisedBlockThreads(t *testing.T) {
	in, out, last := global("in", ir.Uint32, ir.Input), global("out", ir.Uint32, ir.Output),
		global("last", ir.Uint32, ir.Output)
	sh := shared("sh", ir.Uint32, 64)
	i, j := index("i"), index("j")
	k := kernel(64, []*ir.Array{in, out, last}, []*ir.Array{sh},
		forAll(ir.BlockThreads, i, u32(192), 90,
			st(out, i, mul(ld(in, i, 91), u32(2)), 91),
			// Iterations i, i+64 and i+128 run on one thread: no race.
			st(sh, bin(ir.Rem, i, u32(64)), ld(in, i, 92), 92)),
		sync(ir.BlockLevel, 93),
		forAll(ir.BlockThreads, j, u32(64), 94, st(last, j, ld(sh, j, 94), 94)))
	outBuf, lastBuf := NewBuffer(ir.Uint32, 192), NewBuffer(ir.Uint32, 64)
	if err := Launch(k, Config{Blocks: 1}, bufArgs(iota32(192), outBuf, lastBuf)); err != nil {
		t.Fatal(err)
	}
	for i, x := range u32s(outBuf) {
		if x != uint32(2*i) {
			t.Fatalf("out[%d] = %d", i, x)
		}
	}
	for j, x := range u32s(lastBuf) {
		if x != uint32(j+128) {
			t.Fatalf("last[%d] = %d, want the last iteration's %d", j, x, j+128)
		}
	}
}

func TestGridStrideCoversAll(t *testing.T) {
	in, out := global("in", ir.Uint32, ir.Input), global("out", ir.Uint32, ir.Output)
	i := index("i")
	k := kernel(64, []*ir.Array{in, out}, nil, forAll(ir.GridThreads, i, &ir.Len{Array: in}, 100,
		st(out, i, add(ld(in, i, 101), u32(1)), 101)))
	outBuf := NewBuffer(ir.Uint32, 1000)
	if err := Launch(k, Config{Blocks: 2}, bufArgs(iota32(1000), outBuf)); err != nil {
		t.Fatal(err)
	}
	for i, x := range u32s(outBuf) {
		if x != uint32(i+1) {
			t.Fatalf("out[%d] = %d", i, x)
		}
	}
}

func TestUninitialisedSharedRead(t *testing.T) {
	out := global("out", ir.Uint32, ir.Output)
	sh := shared("sh", ir.Uint32, 32)
	i := index("i")
	k := kernel(32, []*ir.Array{out}, []*ir.Array{sh}, forAll(ir.BlockThreads, i, u32(32), 110,
		st(out, i, ld(sh, i, 111), 111)))
	wantError(t, Launch(k, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Uint32, 32))),
		"user.go:111", "read of shared memory sh[0] that this block never wrote")

	count := kernel(32, []*ir.Array{out}, []*ir.Array{sh}, forAll(ir.BlockThreads, i, u32(32), 112,
		&ir.Atomic{Op: ir.AtomicAdd, Array: sh, Index: u32(3), Value: u32(1), Pos: at(113)}))
	wantError(t, Launch(count, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Uint32, 32))),
		"user.go:113", "atomic of shared memory sh[3] that this block never wrote")
}

// warpReverseKernel reverses each warp's 32 elements through shared memory
// at warp level.
func warpReverseKernel(withSync bool) *ir.Kernel {
	in, out := global("in", ir.Uint32, ir.Input), global("out", ir.Uint32, ir.Output)
	sh := shared("sh", ir.Uint32, 64)
	w, l, r := index("w"), index("l"), index("r")
	base := mul(w, u32(32))
	body := []ir.Stmt{
		forAll(ir.WarpLanes, l, u32(32), 121, st(sh, add(base, l), ld(in, add(base, l), 121), 121)),
		forAll(ir.WarpLanes, r, u32(32), 123, st(out, add(base, r), ld(sh, add(base, sub(u32(31), r)), 123), 123)),
	}
	if withSync {
		body = slices.Insert(body, 1, sync(ir.WarpLevel, 122))
	}
	return kernel(64, []*ir.Array{in, out}, []*ir.Array{sh}, forAll(ir.BlockWarps, w, u32(2), 120, body...))
}

func TestWarpLevelSync(t *testing.T) {
	out := NewBuffer(ir.Uint32, 64)
	if err := Launch(warpReverseKernel(true), Config{Blocks: 1}, bufArgs(iota32(64), out)); err != nil {
		t.Fatal(err)
	}
	for i, x := range u32s(out) {
		if want := uint32(i/32*32 + 31 - i%32); x != want {
			t.Fatalf("out[%d] = %d, want %d", i, x, want)
		}
	}
	err := Launch(warpReverseKernel(false), Config{Blocks: 1}, bufArgs(iota32(64), out))
	wantError(t, err, "user.go:123", "data race on sh[")
}

func TestLoopDoesNotTerminate(t *testing.T) {
	saved := maxLoopSteps
	maxLoopSteps = 1000
	defer func() { maxLoopSteps = saved }()
	out := global("out", ir.Uint32, ir.Output)
	i := index("i")
	k := kernel(32, []*ir.Array{out}, nil, forAll(ir.BlockThreads, i, u32(32), 130,
		&ir.While{Cond: bin(ir.Ge, i, u32(5)), Pos: at(131), Body: []ir.Stmt{st(out, i, i, 132)}}))
	wantError(t, Launch(k, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Uint32, 32))), "user.go:131", "does not terminate")
}

func TestFaultsInKernels(t *testing.T) {
	in, out := global("in", ir.Int32, ir.Input), global("out", ir.Int32, ir.Output)
	i, x := index("i"), &ir.Var{Name: "x", T: ir.Int32}
	divide := kernel(32, []*ir.Array{in, out}, nil, forAll(ir.BlockThreads, i, u32(32), 140,
		st(out, i, bin(ir.Div, konst(int32(100)), ld(in, i, 141)), 141)))
	err := Launch(divide, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Int32, 32), NewBuffer(ir.Int32, 32)))
	wantError(t, err, "user.go:141", "division or remainder by zero")

	undeclared := kernel(32, []*ir.Array{in, out}, nil, forAll(ir.BlockThreads, i, u32(32), 142,
		st(out, i, x, 143), decl(x, konst(int32(1)), 144)))
	err = Launch(undeclared, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Int32, 32), NewBuffer(ir.Int32, 32)))
	wantError(t, err, "user.go:143", "variable x read before it is declared")

	outOfBounds := kernel(32, []*ir.Array{in, out}, nil, forAll(ir.BlockThreads, i, u32(32), 145,
		st(out, i, ld(in, add(i, u32(1)), 146), 146)))
	err = Launch(outOfBounds, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Int32, 32), NewBuffer(ir.Int32, 32)))
	wantError(t, err, "user.go:146", "read of in[32] out of bounds")

	// A Select evaluates only the chosen side, so a guarded load is fine.
	guarded := kernel(32, []*ir.Array{in, out}, nil, forAll(ir.BlockThreads, i, u32(32), 147,
		st(out, i, &ir.Select{Cond: bin(ir.Lt, add(i, u32(1)), u32(32)), Then: ld(in, add(i, u32(1)), 148),
			Else: konst(int32(0))}, 148)))
	if err := Launch(guarded, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Int32, 32), NewBuffer(ir.Int32, 32))); err != nil {
		t.Fatalf("guarded load: %v", err)
	}
}

func TestInvalidKernelsAndArguments(t *testing.T) {
	in, out := global("in", ir.Uint32, ir.Input), global("out", ir.Uint32, ir.Output)
	i := index("i")
	k := kernel(32, []*ir.Array{in, out}, nil, forAll(ir.GridThreads, i, u32(4), 150, st(out, i, i, 151)))
	for _, args := range [][]Arg{
		bufArgs(NewBuffer(ir.Uint32, 4)),
		bufArgs(NewBuffer(ir.Uint32, 4), NewBuffer(ir.Int32, 4)),
		{{Buffer: NewBuffer(ir.Uint32, 4)}, {Scalar: valueOf(uint32(1))}},
	} {
		wantError(t, Launch(k, Config{Blocks: 1}, args), "argument")
	}
	wantError(t, Launch(k, Config{Blocks: 0}, bufArgs(NewBuffer(ir.Uint32, 4), NewBuffer(ir.Uint32, 4))), "blocks")

	bad := []*ir.Kernel{
		kernel(32, []*ir.Array{in}, nil, st(in, u32(0), u32(1), 160)),
		kernel(32, []*ir.Array{in}, nil, forAll(ir.BlockThreads, i, u32(4), 161, sync(ir.BlockLevel, 162))),
		kernel(32, []*ir.Array{in}, nil, forAll(ir.WarpLanes, i, u32(4), 163)),
		kernel(32, []*ir.Array{in}, nil, st(out, u32(0), u32(1), 164)),
		kernel(32, []*ir.Array{in}, nil, nil, &ir.Decl{Pos: at(165)}, &ir.If{Pos: at(166)}),
		kernel(32, []*ir.Array{in}, nil, &ir.Store{Array: in, Pos: at(167)}, (*ir.For)(nil), &ir.Atomic{Pos: at(168)}),
	}
	for n, k := range bad {
		err := Launch(k, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Uint32, 4)))
		if err == nil || strings.Contains(err.Error(), "internal error") {
			t.Errorf("bad kernel %d: error %v, want a report of the problem", n, err)
		}
		t.Logf("bad kernel %d: %v", n, err)
	}
}

func TestHostExpr(t *testing.T) {
	in := global("in", ir.Uint32, ir.Input)
	n := &ir.Var{Name: "n", T: ir.Uint32}
	k := kernel(256, []*ir.Array{in}, nil)
	k.Params = append(k.Params, ir.Param{Scalar: n})
	k.Blocks = bin(ir.Div, add(&ir.Len{Array: in}, add(n, u32(255))), u32(256))
	args := []Arg{{Buffer: NewBuffer(ir.Uint32, 1000)}, {Scalar: valueOf(uint32(2))}}
	if v, err := HostExpr(k, k.Blocks, args); err != nil || v != valueOf(uint32(4)) {
		t.Fatalf("blocks = %v, %v; want 4", v, err)
	}
	if _, err := HostExpr(k, special(ir.ThreadIdx), args); err == nil {
		t.Fatal("host expression with threadIdx: no error")
	}
}

// uniformReadKernel: thread 0 of each block (of 64 threads, in warp-level
// code of each warp when warpLevel) writes 7 to sh[0]; the block's (or
// warp's) own code then reads sh[0] into a variable, after a barrier when
// withSync, and every thread stores it to out.
func uniformReadKernel(warpLevel, withSync bool) *ir.Kernel {
	out := global("out", ir.Uint32, ir.Output)
	sh := shared("sh", ir.Uint32, 2)
	vb, w, i, j, v := index("vb"), index("w"), index("i"), index("j"), index("v")
	level, inner, first, lanes := ir.BlockLevel, ir.BlockThreads, u32(0), u32(64)
	if warpLevel {
		level, inner, first, lanes = ir.WarpLevel, ir.WarpLanes, w, u32(32)
	}
	base := mul(vb, u32(64))
	if warpLevel {
		base = add(base, mul(w, u32(32)))
	}
	body := []ir.Stmt{
		forAll(inner, i, u32(1), 41, st(sh, first, u32(7), 41)),
		decl(v, ld(sh, first, 43), 43),
		forAll(inner, j, lanes, 44, st(out, add(base, j), v, 44)),
	}
	if withSync {
		body = slices.Insert(body, 1, sync(level, 42))
	}
	if warpLevel {
		body = []ir.Stmt{forAll(ir.BlockWarps, w, u32(2), 40, body...)}
	}
	return kernel(64, []*ir.Array{out}, []*ir.Array{sh}, forAll(ir.GridBlocks, vb, u32(2), 39, body...))
}

// Block- and warp-level code reads shared memory for every thread of its
// block or warp: a read of a word that one thread wrote, with no barrier
// between, races.
func TestUniformReadOfSharedMemoryRaces(t *testing.T) {
	for _, warpLevel := range []bool{false, true} {
		out := NewBuffer(ir.Uint32, 128)
		if err := Launch(uniformReadKernel(warpLevel, true), Config{Blocks: 2}, bufArgs(out)); err != nil {
			t.Fatalf("warp level %v, with the barrier: %v", warpLevel, err)
		}
		if got := u32s(out); slices.ContainsFunc(got, func(x uint32) bool { return x != 7 }) {
			t.Fatalf("warp level %v, with the barrier: out = %v, want all 7", warpLevel, got)
		}
		err := Launch(uniformReadKernel(warpLevel, false), Config{Blocks: 2}, bufArgs(NewBuffer(ir.Uint32, 128)))
		wantError(t, err, "user.go:43", "data race on sh[", "a write by thread", "user.go:41")
	}
}
