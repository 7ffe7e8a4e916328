package kernels

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// A radix sort of a few thousand keys in one block, one launch, as CUB's
// single-tile sort: the threads load the keys into registers (arrays.Held)
// and, for each digit of the bits sorted from the lowest, rank them
// (arrays.BlockMultisplitHeld, stable), move them to their ranks in shared
// memory and load them back in their new order. A pair's values do not
// travel with their keys: each key carries the position it was loaded
// from, and the values are read from there once the keys are sorted.

// BlockSortMaxKeys is the most keys a block sort takes: blockSortThreads
// threads holding blockSortPerThread keys each.
const BlockSortMaxKeys = blockSortThreads * blockSortPerThread

// The block sort's shape: 256 threads of 8 keys.
const (
	blockSortThreads   = 256
	blockSortPerThread = 8
)

// RadixBlockKernel returns the kernel that sorts up to BlockSortMaxKeys
// keys of type K in one block of one launch, by the bits [begin, end) of
// their order-preserving form, as the radix sort (RadixPassKernel) does:
// stable, keys that differ only outside those bits keep their order.
// Its parameters are keysIn, keysOut (of keysIn's length; it may be
// keysIn itself), then for Pairs valuesIn and valuesOut (of the keys'
// length; valuesOut may be valuesIn itself), for Positions valuesOut (the
// position in keysIn of each sorted key), then begin and end (0 <= begin
// < end <= K's bits). Only the first min(len(keysIn), BlockSortMaxKeys)
// keys are sorted: the host passes at most that many.
func RadixBlockKernel[K Key, V Value](values RadixValues) *dsl.Kernel {
	return withBits[K](func() *dsl.Kernel { return radixBlock[K, uint64, V](values) },
		func() *dsl.Kernel { return radixBlock[K, uint32, V](values) })
}

// radixBlock is RadixBlockKernel with U the bits of K.
func radixBlock[K Key, U uint32 | uint64, V Value](values RadixValues) *dsl.Kernel {
	kb := bitsOf[K, U]()
	k := dsl.NewKernel("radixBlock_"+keyName[K]()+valuesName[V](values), blockSortThreads)
	keysIn := dsl.Input[K](k, "keysIn")
	keysOut := dsl.Output[K](k, "keysOut")
	var valuesIn, valuesOut dsl.Array[V]
	var positionsOut dsl.Array[uint32]
	switch values {
	case Pairs:
		valuesIn = dsl.Input[V](k, "valuesIn")
		valuesOut = dsl.Output[V](k, "valuesOut")
	case Positions:
		positionsOut = dsl.Output[uint32](k, "valuesOut")
	}
	begin := dsl.Param[uint32](k, "begin")
	end := dsl.Param[uint32](k, "end")
	indexed := values != KeysOnly
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			n := dsl.Let(b, keysIn.Len().Min(dsl.N(BlockSortMaxKeys))).Exp
			keys := arrays.NewHeld[U](b, blockSortPerThread, n)
			keys.Load(b, arrays.Generate(n, func(i dsl.U32) dsl.Exp[U] { return kb.load(keysIn.At(i)) }))
			var from arrays.Held[uint32]
			if indexed {
				from = arrays.NewHeld[uint32](b, blockSortPerThread, n)
				from.Load(b, arrays.Generate(n, func(i dsl.U32) dsl.U32 { return i }))
			}
			padded := arrays.BankPaddedLen(BlockSortMaxKeys)
			sorted := dsl.Shared[U](b, padded)
			var sortedFrom dsl.Array[uint32]
			if indexed {
				sortedFrom = dsl.Shared[uint32](b, padded)
			}
			passes := dsl.Let(b, dsl.CeilDiv(end.Sub(begin), dsl.N(RadixBits))).Exp
			b.For(passes, func(b *dsl.Block, p dsl.U32) {
				shift := dsl.Let(b, begin.Add(p.Mul(dsl.N(RadixBits)))).Exp
				width := dsl.Let(b, end.Sub(shift).Min(dsl.N(RadixBits))).Exp
				m := arrays.BlockMultisplitHeld(b, RadixBits, keys, func(u dsl.Exp[U]) dsl.U32 { return digit(u, shift, width) })
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
			keys.Push().Run(b, func(t *dsl.Thread, i dsl.U32, u dsl.Exp[U]) { keysOut.Store(t, i, kb.store(u)) })
			switch values {
			case Pairs:
				// Every value is read before any is written: valuesOut may
				// be valuesIn.
				moved := arrays.NewHeld[V](b, blockSortPerThread, n)
				moved.Load(b, arrays.Generate(n, func(i dsl.U32) dsl.Exp[V] {
					return valuesIn.At(sortedFrom.At(arrays.BankPadded(i)))
				}))
				b.Sync()
				moved.Push().Run(b, valuesOut.Store)
			case Positions:
				from.Push().Run(b, positionsOut.Store)
			}
		})
	})
	return k
}
