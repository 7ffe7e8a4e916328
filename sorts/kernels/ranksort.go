package kernels

import (
	"fmt"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// A rank sort of a few thousand keys in one launch that spreads over the
// whole GPU: each key's place in the sorted order is the number of keys
// that come before it (smaller, or equal and earlier), which a block of
// the launch counts for a warp's worth of keys by comparing them with
// every key. A block loads all the keys, in their order-preserving form
// cut to the bits sorted, into shared memory; each of its warps compares
// its lane's key with a run of them (arrays.CountBefore, reading each key
// once for the warp); the warps' counts of a key add up to its place, and
// the key (with its value, or its position) is written there. It does n^2
// comparisons against the radix sort's few passes over n keys, but the
// passes of a single block run one multiprocessor's worth of warps at a
// time, where the comparisons run on every multiprocessor at once: for a
// few thousand keys they take less time.

// RankSortMaxKeys is the most keys a rank sort takes: its blocks hold
// them all in shared memory (64 KB of 64-bit keys).
const RankSortMaxKeys = 1 << 13

// RankSortMinWarps and RankSortMaxWarps bound the warps of a rank sort's
// block (of at most 1024 threads).
const (
	RankSortMinWarps = 1
	RankSortMaxWarps = 1024 / ir.WarpSize
)

// rankSortWarps are the rank sort's blocks by the size of the keys, the
// number of keys (up to keys) and the bits sorted (at least bits): the
// first row that takes a sort gives its warps, and a sort no row takes is
// the block sort's (RadixBlockKernel), whose time grows with its 8-bit
// passes while the rank sort's does not. Measured on an H200
// (TestGPURankOrBlockSort, medians of 15 with the launch, the mean of two
// runs; µs, rank sort / block sort, by the bits sorted):
//
//	keys  uint32: 4 bits   12         20         32          uint64: 16 bits  32         48         64
//	2^10  11.8/11.0  11.9/12.7  11.4/13.8  11.4/15.4          10.7/10.4  11.1/13.1  10.3/15.9  10.4/18.8
//	2^11  11.4/9.7   11.5/11.1  11.5/12.9  11.4/14.6          11.1/10.6  11.2/18.6  11.7/17.9  12.6/22.1
//	2^12  14.5/11.2  14.4/13.6  14.6/16.4  15.0/19.4          15.3/14.4  15.7/20.9  15.5/25.8  15.7/32.5
//	2^13  26.6/13.7  26.2/17.6  25.9/21.1  26.1/26.8          29.1/18.8  31.6/29.6  29.8/40.5  29.4/50.1
//
// Blocks of 16 warps were the fastest but for uint64 keys beyond 2^10,
// where 32 were (TestGPURadixBlockShapes over every bit, µs in 8, 16 and
// 32 warps: 2^12 uint32 keys 15.1, 12.8, 12.4; uint64 keys 2^10 11.1,
// 9.4, 10.3; 2^12 18.8, 14.8, 13.6).
var rankSortWarps = []struct {
	keyBytes, keys, bits, warps int
}{
	{keyBytes: 4, keys: 1 << 10, bits: 9, warps: 16},
	{keyBytes: 4, keys: 1 << 12, bits: 17, warps: 16},
	{keyBytes: 8, keys: 1 << 10, bits: 17, warps: 16},
	{keyBytes: 8, keys: 1 << 12, bits: 17, warps: 32},
	{keyBytes: 8, keys: RankSortMaxKeys, bits: 33, warps: 32},
}

// RankSortWarpsFor returns the warps of a block of the rank sort of n
// keys of keyBytes bytes by bits of their bits, and false when the rank
// sort does not take them.
func RankSortWarpsFor(keyBytes, n, bits int) (int, bool) {
	for _, r := range rankSortWarps {
		if r.keyBytes == keyBytes && n <= r.keys && bits >= r.bits {
			return r.warps, true
		}
	}
	return 0, false
}

// RankSortSharedBytes is the shared memory of a block of the rank sort
// of keys of keyBytes bytes in blocks of warps warps: every key, and a
// count per thread.
func RankSortSharedBytes(keyBytes, warps int) int {
	return RankSortMaxKeys*keyBytes + warps*ir.WarpSize*4
}

// RankSortKernel returns the kernel that sorts up to RankSortMaxKeys keys
// of type K by ranking each among all, in blocks of warps warps
// (RankSortMinWarps to RankSortMaxWarps), each of which ranks 32 keys:
// stable, by the bits [begin, end) of their order-preserving form, as the
// radix sort (RadixPassKernel) does.
// Its parameters are those of RadixBlockKernel: keysIn, keysOut (of
// keysIn's length, a separate allocation), then for Pairs valuesIn and
// valuesOut (separate allocations) and for Positions valuesOut, then begin
// and end (0 <= begin < end <= K's bits). It sorts the first
// min(len(keysIn), RankSortMaxKeys) keys: the host passes at most that
// many.
func RankSortKernel[K Key, V Value](warps int, values RadixValues) *dsl.Kernel {
	return withBits[K](func() *dsl.Kernel { return rankSort[K, uint64, V](warps, values) },
		func() *dsl.Kernel { return rankSort[K, uint32, V](warps, values) })
}

// rankSort is RankSortKernel with U the bits of K.
func rankSort[K Key, U uint32 | uint64, V Value](warps int, values RadixValues) *dsl.Kernel {
	kb := bitsOf[K, U]()
	bad := warps < RankSortMinWarps || warps > RankSortMaxWarps
	threads := warps * ir.WarpSize
	if bad {
		threads = ir.WarpSize
	}
	k := dsl.NewKernel("rankSort_"+keyName[K]()+valuesName[V](values), threads)
	params := oneLaunchParamsOf[K, V](k, values)
	k.Body(func(g *dsl.Grid) {
		if bad {
			dsl.Let(g, dsl.Invalid[uint32](fmt.Sprintf("RankSortKernel: %d warps a block, want %d to %d", warps,
				RankSortMinWarps, RankSortMaxWarps)))
			return
		}
		n := dsl.Let(g, params.keysIn.Len().Min(dsl.N(RankSortMaxKeys))).Exp
		// The bits sorted, shifted down: all ones shifted right by the bits
		// above end, from the key's bits shifted right by begin.
		mask := dsl.Let(g, dsl.Lit(^U(0)).Shr(dsl.Cast[U](dsl.N(uint32(kb.width)).Sub(params.end.Sub(params.begin))))).Exp
		lanes := dsl.N(ir.WarpSize)
		g.ForAllBlocks(dsl.CeilDiv(n, lanes), func(b *dsl.Block, bid dsl.U32) {
			all := dsl.Shared[U](b, RankSortMaxKeys)
			counts := dsl.Shared[uint32](b, threads)
			b.ForAll(n, func(t *dsl.Thread, j dsl.U32) {
				all.Store(t, j, kb.load(params.keysIn.At(j)).Shr(dsl.Cast[U](params.begin)).And(mask))
			})
			b.Sync()
			// Warp w counts, for its lane's key, the keys of run w.
			run := dsl.Let(b, dsl.CeilDiv(n, dsl.N(uint32(warps)))).Exp
			b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
				i := dsl.Let(t, bid.Mul(lanes).Add(tid.And(lanes.Sub(dsl.N(1))))).Exp
				x := dsl.Let(t, all.At(i.Min(n.Sub(dsl.N(1))))).Exp
				lo := dsl.Let(t, tid.Div(lanes).Mul(run).Min(n)).Exp
				counts.Store(t, tid, arrays.CountBefore(t, arrays.Take(n, arrays.FromArray(all)), lo, lo.Add(run), x, i))
			})
			b.Sync()
			b.ForAll(lanes, func(t *dsl.Thread, lane dsl.U32) {
				i := dsl.Let(t, bid.Mul(lanes).Add(lane)).Exp
				t.If(i.Lt(n), func(t *dsl.Thread) {
					place := dsl.Let(t, arrays.Fold(t, dsl.U32.Add, dsl.N(0), arrays.Generate(dsl.N(uint32(warps)),
						func(w dsl.U32) dsl.U32 { return counts.At(w.Mul(lanes).Add(lane)) }))).Exp
					params.keysOut.Store(t, place, params.keysIn.At(i))
					switch values {
					case Pairs:
						params.valuesOut.Store(t, place, params.valuesIn.At(i))
					case Positions:
						params.positionsOut.Store(t, place, i)
					}
				})
			})
		})
	})
	return k
}

// oneLaunchParams are the parameters of the sorts in one launch
// (RadixBlockKernel, RankSortKernel), in their order: keysIn, keysOut,
// then for Pairs valuesIn and valuesOut, for Positions valuesOut (the
// positions), then begin and end.
type oneLaunchParams[K Key, V Value] struct {
	keysIn, keysOut     dsl.Array[K]
	valuesIn, valuesOut dsl.Array[V]
	positionsOut        dsl.Array[uint32]
	begin, end          dsl.U32
}

// oneLaunchParamsOf declares the parameters of a sort in one launch in k.
func oneLaunchParamsOf[K Key, V Value](k *dsl.Kernel, values RadixValues) oneLaunchParams[K, V] {
	p := oneLaunchParams[K, V]{keysIn: dsl.Input[K](k, "keysIn"), keysOut: dsl.Output[K](k, "keysOut")}
	switch values {
	case Pairs:
		p.valuesIn = dsl.Input[V](k, "valuesIn")
		p.valuesOut = dsl.Output[V](k, "valuesOut")
	case Positions:
		p.positionsOut = dsl.Output[uint32](k, "valuesOut")
	}
	p.begin = dsl.Param[uint32](k, "begin")
	p.end = dsl.Param[uint32](k, "end")
	return p
}
