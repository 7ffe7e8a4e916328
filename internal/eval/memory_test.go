package eval

import (
	"slices"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// shiftCopyKernel is, for every i < len(out), out[i] = in[i+shift] + 1:
// thread i reads in[i+shift] and writes out[i].
func shiftCopyKernel(shift uint32) *ir.Kernel {
	in, out := global("in", ir.Uint32, ir.Input), global("out", ir.Uint32, ir.Output)
	i := index("i")
	return kernel(32, []*ir.Array{in, out}, nil, forAll(ir.GridThreads, i, &ir.Len{Array: out}, 300,
		st(out, i, add(ld(in, add(i, u32(shift)), 301), u32(1)), 302)))
}

// view returns elements [from, to) of b, sharing its memory, as the
// runtime's CPU device passes a view.
func view(b *Buffer, from, to int) *Buffer {
	size := b.Elem.Size()
	return &Buffer{Elem: b.Elem, Data: b.Data[from*size : to*size]}
}

func TestAliasedArgumentsThatConflictRace(t *testing.T) {
	// in and out are the same memory: thread i writes element i, which
	// thread i-1 reads in the same barrier interval.
	buf := iota32(65)
	err := Launch(shiftCopyKernel(1), Config{Blocks: 1}, bufArgs(view(buf, 0, 65), view(buf, 0, 64)))
	wantError(t, err, "user.go:302", "data race on out[1]: write by thread 1 of block 0 and a read of in[1] by "+
		"thread 0 at user.go:301", "(out and in are arguments whose memory overlaps)")

	// Overlapping views at an offset: out[i] is in[i+1], which thread i+1
	// reads.
	buf = iota32(96)
	err = Launch(shiftCopyKernel(0), Config{Blocks: 1}, bufArgs(view(buf, 0, 96), view(buf, 1, 33)))
	wantError(t, err, "data race on out[0]: write by thread 0 of block 0 and a read of in[1] by thread 1",
		"(out and in are arguments whose memory overlaps)")

	// The conflicting accesses are in two blocks: block 0 reads in[32:64],
	// which block 1 writes as out[32:64].
	buf = iota32(96)
	err = Launch(shiftCopyKernel(32), Config{Blocks: 2}, bufArgs(view(buf, 0, 96), view(buf, 0, 64)))
	wantError(t, err, "data race on", "another block", "(in, out: are arguments whose memory overlaps)")
}

func TestAliasedArgumentsThatDoNotConflictPass(t *testing.T) {
	// In place: thread i reads and writes only element i.
	buf := iota32(64)
	if err := Launch(shiftCopyKernel(0), Config{Blocks: 2}, bufArgs(buf, buf)); err != nil {
		t.Fatalf("in-place launch: %v", err)
	}
	for i, x := range u32s(buf) {
		if x != uint32(i+1) {
			t.Fatalf("buf[%d] = %d, want %d", i, x, i+1)
		}
	}
	// Disjoint views of one allocation.
	buf = iota32(128)
	if err := Launch(shiftCopyKernel(1), Config{Blocks: 2}, bufArgs(view(buf, 0, 64), view(buf, 64, 127))); err != nil {
		t.Fatalf("disjoint views: %v", err)
	}
	if got := u32s(buf)[64:127]; got[0] != 2 || got[62] != 64 {
		t.Fatalf("out = %v", got)
	}
}

func TestAliasedArgumentsOfDifferentElementTypes(t *testing.T) {
	// out (uint64) overlaps in (uint32): out[0] is in[0] and in[1], and
	// thread 1 reads in[1] while thread 0 writes out[0].
	in, out := global("in", ir.Uint32, ir.Input), global("out", ir.Uint64, ir.Output)
	i := index("i")
	k := kernel(32, []*ir.Array{in, out}, nil, forAll(ir.GridThreads, i, u32(2), 310,
		&ir.If{Cond: bin(ir.Eq, i, u32(0)), Pos: at(311),
			Then: []ir.Stmt{st(out, u32(0), &ir.Convert{To: ir.Uint64, X: i}, 312)},
			Else: []ir.Stmt{st(out, u32(1), &ir.Convert{To: ir.Uint64, X: ld(in, u32(1), 313)}, 313)}}))
	data := make([]byte, 16)
	err := Launch(k, Config{Blocks: 1}, []Arg{{Buffer: &Buffer{Elem: ir.Uint32, Data: data[:8]}},
		{Buffer: &Buffer{Elem: ir.Uint64, Data: data}}})
	wantError(t, err, "data race on", "in and out are arguments whose memory overlaps")
}

// twoSharedKernel writes a and b (both shared, 64 uint32) in the first
// block-thread loop, reads a in the second, with a barrier between; out
// gets a. Each thread uses its own elements only.
func twoSharedKernel() (*ir.Kernel, *ir.Array, *ir.Array) {
	out := global("out", ir.Uint32, ir.Output)
	a, b := shared("a", ir.Uint32, 64), shared("b", ir.Uint32, 64)
	vb, i, j := index("vb"), index("i"), index("j")
	k := kernel(64, []*ir.Array{out}, []*ir.Array{a, b}, forAll(ir.GridBlocks, vb, u32(1), 320,
		forAll(ir.BlockThreads, i, u32(64), 321, st(a, i, i, 321), st(b, i, u32(7), 322)),
		sync(ir.BlockLevel, 323),
		forAll(ir.BlockThreads, j, u32(64), 324, st(out, j, ld(a, j, 324), 324))))
	return k, a, b
}

func TestSharedArraysAtSeparateBytesPass(t *testing.T) {
	k, a, b := twoSharedKernel()
	a.Offset, b.Offset, k.SharedBytes = 0, 256, 512
	out := NewBuffer(ir.Uint32, 64)
	if err := Launch(k, Config{Blocks: 1}, bufArgs(out)); err != nil {
		t.Fatal(err)
	}
	if got := u32s(out); got[5] != 5 || got[63] != 63 {
		t.Fatalf("out = %v", got)
	}
}

func TestWrongLayoutOfLiveSharedArraysIsReported(t *testing.T) {
	// A layout that puts a and b, both in use, at the same bytes: a[i] is
	// overwritten by b[i] before it is read.
	k, a, b := twoSharedKernel()
	a.Offset, b.Offset, k.SharedBytes = 0, 0, 256
	err := Launch(k, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Uint32, 64)))
	wantError(t, err, "user.go:324", "read of shared memory a[0], whose bytes were last written through b")

	// Overlapping by half: thread i writes a[i+32] and thread i+32 writes
	// b[i]: the same bytes, in one barrier interval.
	k, a, b = twoSharedKernel()
	a.Offset, b.Offset, k.SharedBytes = 0, 128, 384
	err = Launch(k, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Uint32, 64)))
	wantError(t, err, "user.go:321", "data race on a[32]: write by thread 32 of block 0 and a write of b[0] by thread 0",
		"a and b are placed at the same bytes of shared memory by the kernel's layout")
}

func TestSharedArraysReusingBytesAfterABarrierPass(t *testing.T) {
	// a is dead before b is written, with a barrier between: they may
	// share bytes, as codegen's layout places them.
	out := global("out", ir.Uint32, ir.Output)
	a, b := shared("a", ir.Uint32, 64), shared("b", ir.Uint64, 32)
	vb, i, j, l, m := index("vb"), index("i"), index("j"), index("l"), index("m")
	k := kernel(64, []*ir.Array{out}, []*ir.Array{a, b}, forAll(ir.GridBlocks, vb, u32(3), 330,
		forAll(ir.BlockThreads, i, u32(64), 331, st(a, i, i, 331)),
		sync(ir.BlockLevel, 332),
		forAll(ir.BlockThreads, j, u32(64), 333, st(out, add(mul(vb, u32(64)), j), ld(a, bin(ir.Xor, j, u32(1)), 333), 333)),
		sync(ir.BlockLevel, 334),
		forAll(ir.BlockThreads, l, u32(32), 335, st(b, l, &ir.Convert{To: ir.Uint64, X: l}, 335)),
		sync(ir.BlockLevel, 336),
		forAll(ir.BlockThreads, m, u32(32), 337, st(out, add(mul(vb, u32(64)), m),
			add(ld(out, add(mul(vb, u32(64)), m), 337), &ir.Convert{To: ir.Uint32, X: ld(b, bin(ir.Xor, m, u32(3)), 337)}), 337))))
	a.Offset, b.Offset, k.SharedBytes = 0, 0, 256
	for _, blocks := range []int{1, 2, 3} {
		buf := NewBuffer(ir.Uint32, 192)
		if err := Launch(k, Config{Blocks: blocks}, bufArgs(buf)); err != nil {
			t.Fatalf("%d blocks: %v", blocks, err)
		}
		for i, x := range u32s(buf) {
			want := uint32(i%64 ^ 1)
			if i%64 < 32 {
				want += uint32(i%64 ^ 3)
			}
			if x != want {
				t.Fatalf("%d blocks: out[%d] = %d, want %d", blocks, i, x, want)
			}
		}
	}
}

func TestSharedArrayPlacedOutsideSharedMemory(t *testing.T) {
	k, a, b := twoSharedKernel()
	a.Offset, b.Offset, k.SharedBytes = 0, 200, 400
	wantError(t, Launch(k, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Uint32, 64))),
		"shared array b is placed at bytes [200, 456), outside the kernel's 400 bytes of shared memory")

	k, a, b = twoSharedKernel()
	a.Offset, b.Offset, k.SharedBytes = 0, 258, 600
	wantError(t, Launch(k, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Uint32, 64))),
		"shared array b is placed at byte 258, not a multiple of its 4-byte elements")

	huge := shared("huge", ir.Uint32, 1<<62)
	k = kernel(32, nil, []*ir.Array{huge})
	wantError(t, Launch(k, Config{Blocks: 1}, nil), "shared array huge of 4611686018427387904 elements")
}

// previousBodyKernel: in a GridBlocks ForAll over two virtual blocks, the
// first writes sh and every one reads it after a barrier; the second block
// body reads what the first left.
func previousBodyKernel() *ir.Kernel {
	out := global("out", ir.Uint32, ir.Output)
	sh := shared("sh", ir.Uint32, 32)
	vb, i, j := index("vb"), index("i"), index("j")
	return kernel(32, []*ir.Array{out}, []*ir.Array{sh}, forAll(ir.GridBlocks, vb, u32(2), 340,
		&ir.If{Cond: bin(ir.Eq, vb, u32(0)), Pos: at(341), Then: []ir.Stmt{
			forAll(ir.BlockThreads, i, u32(32), 342, st(sh, i, i, 342))}},
		sync(ir.BlockLevel, 343),
		forAll(ir.BlockThreads, j, u32(32), 344, st(out, add(mul(vb, u32(32)), j), ld(sh, j, 345), 344))))
}

func TestSharedMemoryHoldsNothingFromAnEarlierBlockBody(t *testing.T) {
	// With one block, virtual block 1 runs after 0 in the same block and
	// would find its data; with two, in another block. Both are reported.
	for _, blocks := range []int{1, 2} {
		err := Launch(previousBodyKernel(), Config{Blocks: blocks}, bufArgs(NewBuffer(ir.Uint32, 64)))
		wantError(t, err, "user.go:345", "read of shared memory sh[0] that this block never wrote")
	}

	// The same across two GridBlocks ForAlls.
	out := global("out", ir.Uint32, ir.Output)
	sh := shared("sh", ir.Uint32, 32)
	vb, wb, i, j := index("vb"), index("wb"), index("i"), index("j")
	k := kernel(32, []*ir.Array{out}, []*ir.Array{sh},
		forAll(ir.GridBlocks, vb, u32(1), 350, forAll(ir.BlockThreads, i, u32(32), 351, st(sh, i, i, 351))),
		forAll(ir.GridBlocks, wb, u32(1), 352, forAll(ir.BlockThreads, j, u32(32), 353, st(out, j, ld(sh, j, 354), 353))))
	wantError(t, Launch(k, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Uint32, 32))),
		"user.go:354", "read of shared memory sh[0] that this block never wrote")
}

func TestRegionsGroupOverlappingArguments(t *testing.T) {
	buf := iota32(100)
	other := iota32(10)
	k := kernel(32, []*ir.Array{global("a", ir.Uint32, ir.ReadWrite), global("b", ir.Uint32, ir.ReadWrite),
		global("c", ir.Uint32, ir.ReadWrite), global("d", ir.Uint32, ir.ReadWrite), global("e", ir.Uint32, ir.ReadWrite)}, nil)
	m := newMachine(&program{kernel: k, written: []bool{true, false, false, false, false}, arrays: nil}, 1, 32)
	mems := []*memory{
		{array: k.Params[0].Array, slot: 0, elem: 4, data: view(buf, 0, 10).Data},
		{array: k.Params[1].Array, slot: 1, elem: 4, data: view(buf, 50, 60).Data},
		{array: k.Params[2].Array, slot: 2, elem: 4, data: view(buf, 5, 52).Data},
		{array: k.Params[3].Array, slot: 3, elem: 4, data: other.Data},
		{array: k.Params[4].Array, slot: 4, elem: 4, data: view(buf, 60, 70).Data},
	}
	m.groupGlobals(mems)
	var names []string
	for _, mem := range mems {
		names = append(names, mem.region.names())
	}
	want := []string{"a, c, b", "a, c, b", "a, c, b", "d", "e"}
	if !slices.Equal(names, want) {
		t.Fatalf("regions %q, want %q", names, want)
	}
	if mems[1].cell != 50 || mems[2].cell != 5 || mems[0].region.shadow == nil || mems[3].region.shadow != nil {
		t.Fatalf("cells %d, %d; shadows %v, %v", mems[1].cell, mems[2].cell, mems[0].region.shadow, mems[3].region.shadow)
	}
}
