package kernels

import (
	"cmp"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// A radix sort of a few thousand keys in one block, one launch, as CUB's
// single-tile sort: the threads load the keys into registers (arrays.Held)
// and, for each digit of the bits sorted from the lowest, rank them
// (stable: by votes, arrays.BlockMultisplitHeld, or by per-thread
// counters, arrays.BlockMultisplitCounted, as the shape's Rank says), move
// them to their ranks in shared memory and load them back in their new
// order. A pair's values do not
// travel with their keys: each key carries the position it was loaded
// from, and the values are read from there once the keys are sorted.

// BlockSortMaxKeys is the most uint32 keys (without values) a block sort
// takes: the largest tile of radixBlockShapes for them.
const BlockSortMaxKeys = 1 << 13

// radixBlockShapes are the block sort's shapes by the size of the keys,
// of the values (at most valueBytes; 4 for an argsort's positions) and
// the number of keys (the shape's tile), rows of a size in increasing
// tiles: the first row whose tile takes the keys sorts them. Measured on
// an H200 (TestGPURadixBlockShapes, random keys over all their bits,
// medians of 15 with the launch): a block's barriers and its counters'
// scan grow with its threads, so that the fewest threads that hold the
// keys in 8 or 16 registers are fastest, and 6-bit digits (CUB's
// single-tile sort's) were slower at every size. uint32 keys: 2^10 keys
// 128×8 11.5 µs (pairs 14.0) against 13.6 (17.6) for 256×8 in one run,
// 12.8 (17.0) against 16.8 (19.2) in another; 2^11 keys
// 256×8 15.9 µs (pairs 17.8) against 50.6 by the passes; 2^12 512×8
// 18.4 and 18.6 in two runs against 18.8 and 20.9 for 256×16 (pairs
// 21.8, 20.7 against 21.0, 20.8), and 38.9 by the passes; 2^13 512×16 26.8 (33.7) against 38.9; 2^14
// 1024×16 47.5 against 39.7. uint64 keys: 2^10 128×8 21.3 against 24.2
// for 256×8; 2^12 512×8 35.3 against 74.6; 2^13 512×16 54.7 against 79.4;
// 2^14 1024×16 101.2 against 101.5. Kernel durations (ncu,
// TestGPURankOrBlockSort) with digits of BlockDigitBits confirm the rows
// to within 0.3 µs wherever the block sort is picked: 2^12 uint32 keys of
// 4 bits 5.5 µs in 512×8 against 5.8 in 256×16 and 7.2 in 1024×8, of 12
// bits 9.0 against 9.2 and 13.0; 2^10 keys of 8 bits 4.3 in 128×8 against
// 5.0 in 256×8; 2^13 keys of 12 bits 13.4 in 512×16 against 13.4 in
// 1024×8 and 18.0 in 256×32. The values of a pair do not move
// with their keys (they are read once, at the end), so that their size
// does not change the shape.
var radixBlockShapes = []struct {
	keyBytes, valueBytes int
	shape                RadixShape
}{
	{keyBytes: 4, valueBytes: 8, shape: RadixShape{Threads: 128, PerThread: 8, Bits: RadixBits}},
	{keyBytes: 4, valueBytes: 8, shape: RadixShape{Threads: 256, PerThread: 8, Bits: RadixBits}},
	{keyBytes: 4, valueBytes: 8, shape: RadixShape{Threads: 512, PerThread: 8, Bits: RadixBits}},
	{keyBytes: 4, valueBytes: 8, shape: RadixShape{Threads: 512, PerThread: 16, Bits: RadixBits}},
	{keyBytes: 8, valueBytes: 8, shape: RadixShape{Threads: 128, PerThread: 8, Bits: RadixBits}},
	{keyBytes: 8, valueBytes: 8, shape: RadixShape{Threads: 256, PerThread: 8, Bits: RadixBits}},
	{keyBytes: 8, valueBytes: 8, shape: RadixShape{Threads: 512, PerThread: 8, Bits: RadixBits}},
	{keyBytes: 8, valueBytes: 8, shape: RadixShape{Threads: 512, PerThread: 16, Bits: RadixBits}},
}

// RadixBlockShapeFor returns the shape of the block sort of n keys of
// keyBytes bytes with values of valueBytes bytes (0 for keys alone, 4 for
// an argsort's positions), sorted by bits of their bits, and false when n
// keys are too many for one block: then the radix sort's passes
// (RadixPassKernel) sort them faster. Its digits are BlockDigitBits(bits)
// wide.
func RadixBlockShapeFor(keyBytes, valueBytes, n, bits int) (RadixShape, bool) {
	for i := range radixBlockShapes {
		r := &radixBlockShapes[i] // not copied: a sort's host work looks this up at every call
		if r.keyBytes == keyBytes && valueBytes <= r.valueBytes && n <= r.shape.Tile() {
			shape := r.shape
			shape.Bits = BlockDigitBits(bits)
			return shape, true
		}
	}
	return RadixShape{}, false
}

// BlockDigitBits returns the width of the block sort's digits for a sort
// of bits bits: the narrowest of blockDigitWidths that sorts them in as
// few passes as digits of RadixBits bits. A pass's cost grows with its
// digit's width, its votes and its counters (2^width for each warp,
// zeroed and scanned), so that narrower digits in the same passes are
// cheaper; each width is a kernel of its own, compiled at its first use,
// hence a few widths only. Measured on an H200 (ncu, one block of 512×8
// uint32 keys told the bits): 4 bits in one pass of 4-bit digits 5.4 µs
// against 6.5 in one of 8-bit digits, 6 bits 6.1 against 6.7, 12 bits in
// two 6-bit passes 9.1 against 10.4 in two 8-bit ones, and 8 bits in one
// 8-bit pass 6.8 against 7.6 in two 4-bit ones; at 8192 keys 4 bits 7.6
// against 9.2.
func BlockDigitBits(bits int) int {
	passes := max(1, (bits+RadixBits-1)/RadixBits)
	for _, w := range blockDigitWidths {
		if w*passes >= bits {
			return w
		}
	}
	return RadixBits
}

// blockDigitWidths are the digit widths of the block sort, narrowest
// first, the last RadixBits.
var blockDigitWidths = []int{4, 6, RadixBits}

// RadixBlockKernel returns the kernel that sorts up to shape.Tile() keys
// of type K in one block of shape.Threads threads holding
// shape.PerThread keys each, in digits of shape.Bits bits ranked as
// shape.Rank says, by the bits
// [begin, end) of their order-preserving form, as the radix sort
// (RadixPassKernel) does: stable, keys that differ only outside those bits
// keep their order. Its parameters are keysIn, keysOut (of keysIn's
// length; it may be keysIn itself), then for Pairs valuesIn and valuesOut
// (of the keys' length; valuesOut may be valuesIn itself), for Positions
// valuesOut (the position in keysIn of each sorted key), then begin and
// end (0 <= begin < end <= K's bits). Only the first min(len(keysIn),
// shape.Tile()) keys are sorted: the host passes at most that many.
// shape's Window, MinBlocks, Unroll and Unpadded are ignored.
func RadixBlockKernel[K Key, V Value](shape RadixShape, values RadixValues, order Order) *dsl.Kernel {
	return withBits[K](func() *dsl.Kernel { return radixBlock[K, uint64, V](shape, values, order) },
		func() *dsl.Kernel { return radixBlock[K, uint32, V](shape, values, order) })
}

// radixBlock is RadixBlockKernel with U the bits of K.
func radixBlock[K Key, U uint32 | uint64, V Value](shape RadixShape, values RadixValues, order Order) *dsl.Kernel {
	kb := bitsOf[K, U](order)
	threads := shape.Threads
	if shape.Check() != nil {
		threads = 256
	}
	k := dsl.NewKernel("radixBlock_"+keyName[K]()+valuesName[V](values)+order.suffix(), threads)
	params := oneLaunchParamsOf[K, V](k, values)
	indexed := values != KeysOnly
	tile, per, bits := shape.Tile(), shape.PerThread, uint32(shape.Bits)
	// sortBlock sorts the first n keys in block b, moving them to their
	// ranks in sorted (their positions in sortedFrom) at each digit.
	sortBlock := func(b *dsl.Block, n dsl.U32, sorted dsl.Array[U], sortedFrom dsl.Array[uint32]) {
		keys := newTile[U](b, shape, n)
		keys.Load(b, arrays.Generate(n, func(i dsl.U32) dsl.Exp[U] { return kb.load(params.keysIn.At(i)) }))
		var from arrays.Held[uint32]
		if indexed {
			from = newTile[uint32](b, shape, n)
			from.Load(b, arrays.Generate(n, func(i dsl.U32) dsl.U32 { return i }))
		}
		passes := dsl.Let(b, dsl.CeilDiv(params.end.Sub(params.begin), dsl.N(bits))).Exp
		b.For(passes, func(b *dsl.Block, p dsl.U32) {
			shift := dsl.Let(b, params.begin.Add(p.Mul(dsl.N(bits)))).Exp
			width := dsl.Let(b, params.end.Sub(shift).Min(dsl.N(bits))).Exp
			m := rankTile(b, shape, keys, func(u dsl.Exp[U]) dsl.U32 { return kb.digit(u, shift, width) })
			ranks := m.HeldRanks(b)
			keys.ScatterBy(ranks).Run(b, paddedWriter(sorted))
			if indexed {
				from.ScatterBy(ranks).Run(b, paddedWriter(sortedFrom))
			}
			b.Sync()
			keys.Load(b, arrays.Generate(n, func(i dsl.U32) dsl.Exp[U] { return sorted.At(arrays.BankPadded(i)) }))
			if indexed {
				from.Load(b, arrays.Generate(n, func(i dsl.U32) dsl.U32 { return sortedFrom.At(arrays.BankPadded(i)) }))
			}
			b.Sync()
		})
		keys.Push().Run(b, func(t *dsl.Thread, i dsl.U32, u dsl.Exp[U]) { params.keysOut.Store(t, i, kb.store(u)) })
		switch values {
		case Pairs:
			// Every value is read before any is written: valuesOut may be
			// valuesIn.
			moved := arrays.NewHeld[V](b, per, n)
			moved.Load(b, arrays.Generate(n, func(i dsl.U32) dsl.Exp[V] {
				return params.valuesIn.At(sortedFrom.At(arrays.BankPadded(i)))
			}))
			b.Sync()
			moved.Push().Run(b, params.valuesOut.Store)
		case Positions:
			from.Push().Run(b, params.positionsOut.Store)
		}
	}
	k.Body(func(g *dsl.Grid) {
		if err := cmp.Or(shape.Check(), order.Check()); err != nil {
			dsl.Let(g, dsl.Invalid[uint32]("RadixBlockKernel: "+err.Error()))
			return
		}
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			padded := arrays.BankPaddedLen(tile)
			sorted := dsl.Shared[U](b, padded)
			var sortedFrom dsl.Array[uint32]
			if indexed {
				sortedFrom = dsl.Shared[uint32](b, padded)
			}
			// A full tile takes a copy of the sort whose n is a constant, so
			// that its slots need no bound checks.
			n := dsl.Let(b, params.keysIn.Len().Min(dsl.N(uint32(tile)))).Exp
			full := dsl.N(uint32(tile))
			b.IfElse(n.Eq(full), func(b *dsl.Block) { sortBlock(b, full, sorted, sortedFrom) },
				func(b *dsl.Block) { sortBlock(b, n, sorted, sortedFrom) })
		})
	})
	return k
}
