package kernels

import (
	"fmt"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// A radix sort of a few thousand keys in one block, one launch: the keys
// are loaded into shared memory, ranked by one digit at a time from the
// lowest (arrays.BlockMultisplit, stable) and moved to their ranks in a
// second shared array, the two arrays taking turns, then written out.
// Values do not travel with their keys: each key carries the index it was
// loaded from (16 bits), and the values are read from there when the keys
// are written, so that 64-bit keys and their values fit 48 KiB.

// BlockSortMaxKeys is the most keys a block sort takes: with 4-bit digits
// every key type and pairs fit the 48 KiB of shared memory a kernel has
// without opting in (2048 64-bit keys with their indices: 40 KiB in two
// arrays of each), and 32-bit keys with 8-bit digits too.
const BlockSortMaxKeys = 2048

// blockSortThreads is the block size of the block sort: 8 keys a thread.
const blockSortThreads = 256

// blockSortSharedBytes is the shared memory a kernel may take without
// opting in.
const blockSortSharedBytes = 48 << 10

// KeyBits is the set of the types of a block sort's keys: the unsigned
// bits of 32 and 64-bit keys of any type, which an Ordering maps to their
// order.
type KeyBits interface{ uint32 | uint64 }

// Ordering turns a key's bits into bits whose unsigned order is the
// key's order (for a signed key: flip the sign bit; for a float: IEEE
// totalOrder), or back.
type Ordering[U KeyBits] func(dsl.Exp[U]) dsl.Exp[U]

// BlockSortKernel returns the kernel called name that sorts its keys (an
// input of at most BlockSortMaxKeys elements, of the unsigned type U) into
// out in one block, by radix sort on digits of bits bits (1 to
// arrays.MaxDigitBits). toOrder is applied to every key as it is loaded
// and fromOrder as it is stored; nil means the identity (U's own order).
// The parameters are keys and out; only min(len(keys), len(out),
// BlockSortMaxKeys) keys are sorted, so the host passes arrays of the same
// length, at most BlockSortMaxKeys.
func BlockSortKernel[U KeyBits](name string, bits int, toOrder, fromOrder Ordering[U]) *dsl.Kernel {
	return blockSortKernel[U, uint32](name, bits, false, toOrder, fromOrder)
}

// BlockSortPairsKernel is BlockSortKernel for key-value pairs: its
// parameters are keys, vals, out and outVals, and the value of every key
// goes where the key goes. The sort is stable: values of equal keys keep
// their order.
func BlockSortPairsKernel[U KeyBits, V dsl.Scalar](name string, bits int, toOrder, fromOrder Ordering[U]) *dsl.Kernel {
	return blockSortKernel[U, V](name, bits, true, toOrder, fromOrder)
}

// blockSortKernel is BlockSortKernel, with values when pairs.
func blockSortKernel[U KeyBits, V dsl.Scalar](name string, bits int, pairs bool, toOrder, fromOrder Ordering[U]) *dsl.Kernel {
	toOrder, fromOrder = orIdentity(toOrder), orIdentity(fromOrder)
	k := dsl.NewKernel(name, blockSortThreads)
	keys := dsl.Input[U](k, "keys")
	var vals, outVals dsl.Array[V]
	if pairs {
		vals = dsl.Input[V](k, "vals")
	}
	out := dsl.Output[U](k, "out")
	if pairs {
		outVals = dsl.Output[V](k, "outVals")
	}
	keyBits := dsl.TypeOf[U]().Bits()
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			if msg := blockSortShared(bits, keyBits, pairs); msg != "" {
				dsl.Let(b, dsl.Invalid[uint32](name+": "+msg))
				return
			}
			n := dsl.Let(b, keys.Len().Min(out.Len()).Min(dsl.N(BlockSortMaxKeys))).Exp
			var key, from [2]dsl.Array[U]
			var index [2]dsl.Array[uint16]
			for i := range key {
				key[i] = dsl.Shared[U](b, BlockSortMaxKeys)
				if pairs {
					index[i] = dsl.Shared[uint16](b, BlockSortMaxKeys)
				}
			}
			from = key
			b.ForAll(n, func(t *dsl.Thread, i dsl.U32) {
				key[0].Store(t, i, toOrder(keys.At(i)))
				if pairs {
					index[0].Store(t, i, dsl.Cast[uint16](i))
				}
			})
			b.Sync()
			src := 0
			for shift := 0; shift < keyBits; shift += bits {
				digit := func(x dsl.Exp[U]) dsl.U32 { return dsl.Cast[uint32](x.Shr(dsl.Const[U](int64(shift)))) }
				m := arrays.BlockMultisplit(b, bits, arrays.Take(n, arrays.FromArray(from[src])), digit)
				m.Ranks().Run(b, func(t *dsl.Thread, i, rank dsl.U32) {
					key[1-src].Store(t, rank, key[src].At(i))
					if pairs {
						index[1-src].Store(t, rank, index[src].At(i))
					}
				})
				b.Sync()
				src = 1 - src
			}
			b.ForAll(n, func(t *dsl.Thread, i dsl.U32) {
				out.Store(t, i, fromOrder(key[src].At(i)))
				if pairs {
					outVals.Store(t, i, vals.At(dsl.Cast[uint32](index[src].At(i))))
				}
			})
		})
	})
	return k
}

// orIdentity returns f, or the identity when f is nil.
func orIdentity[U KeyBits](f Ordering[U]) Ordering[U] {
	if f == nil {
		return func(x dsl.Exp[U]) dsl.Exp[U] { return x }
	}
	return f
}

// blockSortShared returns why a block sort of digits of bits bits over
// keys of keyBits bits (with indices when pairs) does not fit in shared
// memory, or "": two arrays of keys (and of 16-bit indices), and the
// multisplit's two counters per digit and warp.
func blockSortShared(bits, keyBits int, pairs bool) string {
	if bits < 1 || bits > arrays.MaxDigitBits {
		return fmt.Sprintf("digits of %d bits: bits must be 1 to %d", bits, arrays.MaxDigitBits)
	}
	perKey := keyBits / 8
	if pairs {
		perKey += 2
	}
	warps := blockSortThreads / ir.WarpSize
	need := 2*BlockSortMaxKeys*perKey + 2*(1<<bits)*(warps|1)*4 + 4*warps
	if need > blockSortSharedBytes {
		return fmt.Sprintf("%d-bit keys%s in digits of %d bits need %d bytes of shared memory, more than %d: take smaller digits",
			keyBits, map[bool]string{true: " with values"}[pairs], bits, need, blockSortSharedBytes)
	}
	return ""
}
