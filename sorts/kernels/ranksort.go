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
// its lane's key with a run of them (arrays.CountBefore, reading four
// 32-bit keys at once for the warp; arrays.CountBeforeNarrow, by
// arithmetic, where the bits sorted are fewer than the key's, so that the
// cut keys leave their top bit clear); the warps' counts of a key add up
// to its place, and
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
// the block sort's (RadixBlockKernel), whose time grows with its passes
// (BlockDigitBits) while the rank sort's does not. Measured on an H200
// (each sort launched 7 times under ncu, the kernel's median duration;
// µs, rank sort of 32 warps / block sort, by the bits sorted):
//
//	keys  uint32: 4 bits  8        12        16        24        32         uint64: 8  16        32        64
//	2^10  5.2/4.3   5.2/4.7  5.5/6.5   5.2/6.3   5.3/8.1   5.5/9.9    5.9/4.7   6.1/6.3   6.0/10.1  5.9/17.2
//	2^11  6.3/4.5   6.2/5.2  6.3/6.7   6.4/7.3   6.2/9.7   6.8/11.9   7.6/5.4   7.6/7.7   7.5/12.5  7.6/21.7
//	2^12  8.2/5.6   8.2/6.8  8.2/9.0   8.3/10.7  8.2/14.8  9.1/18.4   9.9/7.7   9.9/11.7  9.9/20.0  9.6/36.6
//	2^13  16.5/7.4  16.5/9.8 16.5/13.1 16.6/15.8 16.6/22.1 20.4/28.0  24.1/11.0 24.2/17.5 24.1/30.9 23.0/57.1
//
// The block sort's time steps with its passes and their digits: 9 to 12
// bits take two passes of 6-bit digits, 13 to 16 two of 8 bits, 17 to 24
// three, 25 to 32 four. The rank sort's time does not move with the bits
// but for full-width 32-bit keys, which it compares where it counts the
// narrower ones by arithmetic (arrays.CountBeforeNarrow). Before it read
// four keys a load and counted by arithmetic, it took 5.5, 7.0, 10.1 and
// 25.4 µs for 2^10 to 2^13 uint32 keys, and sorted 13 bits or more of
// 4096 keys, 25 or more of 8192. Blocks of 32 warps ranked as fast as 16
// or faster in every cell of an earlier table (2^12 uint32 keys 10.1
// against 10.6 µs, uint64 keys 11.1 against 13.1; 2^13 uint64 keys 28.3
// against 32.2).
var rankSortWarps = []struct {
	keyBytes, keys, bits, warps int
}{
	{keyBytes: 4, keys: 1 << 12, bits: 9, warps: 32},
	{keyBytes: 4, keys: RankSortMaxKeys, bits: 17, warps: 32},
	{keyBytes: 8, keys: 1 << 12, bits: 9, warps: 32},
	{keyBytes: 8, keys: RankSortMaxKeys, bits: 25, warps: 32},
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
func RankSortKernel[K Key, V Value](warps int, values RadixValues, order Order) *dsl.Kernel {
	return withBits[K](func() *dsl.Kernel { return rankSort[K, uint64, V](warps, values, order) },
		func() *dsl.Kernel { return rankSort[K, uint32, V](warps, values, order) })
}

// rankSort is RankSortKernel with U the bits of K.
func rankSort[K Key, U uint32 | uint64, V Value](warps int, values RadixValues, order Order) *dsl.Kernel {
	kb := bitsOf[K, U](order)
	bad := warps < RankSortMinWarps || warps > RankSortMaxWarps
	threads := warps * ir.WarpSize
	if bad {
		threads = ir.WarpSize
	}
	k := dsl.NewKernel("rankSort_"+keyName[K]()+valuesName[V](values)+order.suffix(), threads)
	params := oneLaunchParamsOf[K, V](k, values)
	k.Body(func(g *dsl.Grid) {
		if bad {
			dsl.Let(g, dsl.Invalid[uint32](fmt.Sprintf("RankSortKernel: %d warps a block, want %d to %d", warps,
				RankSortMinWarps, RankSortMaxWarps)))
			return
		}
		if err := order.Check(); err != nil {
			dsl.Let(g, dsl.Invalid[uint32]("RankSortKernel: "+err.Error()))
			return
		}
		n := dsl.Let(g, params.keysIn.Len().Min(dsl.N(RankSortMaxKeys))).Exp
		// The bits sorted, shifted down: all ones shifted right by the bits
		// above end, from the key's bits shifted right by begin.
		mask := dsl.Let(g, dsl.Lit(^U(0)).Shr(dsl.Cast[U](dsl.N(uint32(kb.width)).Sub(params.end.Sub(params.begin))))).Exp
		// Fewer bits than U's leave the keys' top bit clear, so that they
		// are counted by arithmetic (arrays.CountBeforeNarrow).
		narrow := dsl.Let(g, params.end.Sub(params.begin).Lt(dsl.N(uint32(kb.width)))).Exp
		lanes := dsl.N(ir.WarpSize)
		g.ForAllBlocks(dsl.CeilDiv(n, lanes), func(b *dsl.Block, bid dsl.U32) {
			all := dsl.Shared[U](b, RankSortMaxKeys)
			counts := dsl.Shared[uint32](b, threads)
			b.ForAll(n, func(t *dsl.Thread, j dsl.U32) {
				bits := kb.load(params.keysIn.At(j)).Shr(dsl.Cast[U](params.begin)).And(mask)
				if kb.descending { // larger keys count as smaller
					bits = bits.Xor(mask)
				}
				all.Store(t, j, bits)
			})
			b.Sync()
			// Warp w counts, for its lane's key, the keys of run w.
			run := dsl.Let(b, dsl.CeilDiv(n, dsl.N(uint32(warps)))).Exp
			b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
				i := dsl.Let(t, bid.Mul(lanes).Add(tid.And(lanes.Sub(dsl.N(1))))).Exp
				x := dsl.Let(t, all.At(i.Min(n.Sub(dsl.N(1))))).Exp
				lo := dsl.Let(t, tid.Div(lanes).Mul(run).Min(n)).Exp
				keys := arrays.Take(n, arrays.FromArray(all))
				t.IfElse(narrow, func(t *dsl.Thread) {
					counts.Store(t, tid, arrays.CountBeforeNarrow(t, keys, lo, lo.Add(run), x, i))
				}, func(t *dsl.Thread) {
					counts.Store(t, tid, arrays.CountBefore(t, keys, lo, lo.Add(run), x, i))
				})
			})
			b.Sync()
			b.ForAll(lanes, func(t *dsl.Thread, lane dsl.U32) {
				i := dsl.Let(t, bid.Mul(lanes).Add(lane)).Exp
				t.If(i.Lt(n), func(t *dsl.Thread) {
					// The key (and value) are loaded before the counts are
					// summed, so that the loads wait alongside the sum.
					key := dsl.Let(t, params.keysIn.At(i)).Exp
					var value dsl.Exp[V]
					if values == Pairs {
						value = dsl.Let(t, params.valuesIn.At(i)).Exp
					}
					place := dsl.Let(t, arrays.Fold(t, dsl.U32.Add, dsl.N(0), arrays.Generate(dsl.N(uint32(warps)),
						func(w dsl.U32) dsl.U32 { return counts.At(w.Mul(lanes).Add(lane)) }))).Exp
					params.keysOut.Store(t, place, key)
					switch values {
					case Pairs:
						params.valuesOut.Store(t, place, value)
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
