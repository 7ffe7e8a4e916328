package kernels

import (
	"fmt"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// Per-key kernels with a table privatised in shared memory: the keys are
// split into parts (one block reads part p's keys, p*threads + tid +
// j*parts*threads, so that every step of the block reads consecutive keys),
// and the table into slices of at most capacity cells. Virtual block
// part*slices + slice keeps its own zeroed copies of the slice in shared
// memory, updates them for every key of its part that lands in the slice,
// and merges the non-zero cells into the global table once. Contended
// updates then stay in shared memory, and only the merge touches global
// memory.

// keysAtOnce is the number of keys a thread loads before counting them.
// Measured on an H200 (ncu, 2^25 keys): 8 reads the keys of 16 or 256
// values in 59–61 µs against 69–71 with 4, and 16 is no faster for the
// histogram and slower for the bitset.
const keysAtOnce = 8

// TableShape is the shape of a kernel with a shared table.
type TableShape struct {
	Threads  int // threads per block
	Copies   int // copies of the table per block: 1, or one per warp
	Capacity int // cells of one copy
}

// tableKind says what a shared table holds: counts (histogram) or bits
// (occurs).
type tableKind struct {
	name string
	// global declares the kernel's global table.
	global func(k *dsl.Kernel, name string) dsl.Array[uint32]
	// cell returns the table cell of a bin (a value minus lo).
	cell func(bin dsl.U32) dsl.U32
	// update records a bin in cell i of a shared copy.
	update func(t *dsl.Thread, sh dsl.Array[uint32], i, bin dsl.U32)
	// combine merges the copies of one cell.
	combine func(x, y dsl.U32) dsl.U32
	// merge adds a non-zero shared cell v into cell i of the global table.
	merge func(t *dsl.Thread, table dsl.Array[uint32], i, v dsl.U32)
}

// counts is the histogram's table: one counter per bin.
var counts = tableKind{
	name:   "histogram",
	global: dsl.Output[uint32],
	cell:   func(bin dsl.U32) dsl.U32 { return bin },
	update: func(t *dsl.Thread, sh dsl.Array[uint32], i, _ dsl.U32) {
		sh.Atomic(t, dsl.AtomicAdd, i, dsl.N(1))
	},
	combine: dsl.U32.Add,
	merge: func(t *dsl.Thread, table dsl.Array[uint32], i, v dsl.U32) {
		table.Atomic(t, dsl.AtomicAdd, i, v)
	},
}

// bits is occurs' table: one bit per bin, wordBits bins to a word.
var bits = tableKind{
	name:   "occurs",
	global: dsl.InOut[uint32],
	cell:   wordOf,
	update: func(t *dsl.Thread, sh dsl.Array[uint32], i, bin dsl.U32) {
		setBits(t, sh, i, bitOf(bin))
	},
	combine: dsl.U32.Or,
	merge:   setBits,
}

// setBits sets the bits of mask in word i of a with an atomic or, but only
// when one of them is clear: most keys of a small range find their bit set
// and leave the word alone (test before set).
func setBits(t *dsl.Thread, a dsl.Array[uint32], i, mask dsl.U32) {
	t.If(a.At(i).And(mask).Ne(mask), func(t *dsl.Thread) { a.Atomic(t, dsl.AtomicOr, i, mask) })
}

// sharedTableKernel returns the per-key kernel of kind (counts or bits)
// with its table privatised in shared memory, in the given shape, named by
// shapeName. Its parameters are the keys, lo, the number of values bins
// (keys outside [lo, lo+bins) set bad[0]), the number of key parts and
// table slices, the global table (zeroed by the host) and the bad flag.
func sharedTableKernel(kind tableKind, shape TableShape) *dsl.Kernel {
	k := dsl.NewKernel(shapeName(kind.name, shape), shape.Threads)
	keys := dsl.Input[uint32](k, "keys")
	lo := dsl.Param[uint32](k, "lo")
	bins := dsl.Param[uint32](k, "bins")
	parts := dsl.Param[uint32](k, "parts")
	slices := dsl.Param[uint32](k, "slices")
	table := kind.global(k, "table")
	bad := dsl.Output[uint32](k, "bad")
	capacity, threads := dsl.N(uint32(shape.Capacity)), dsl.N(uint32(shape.Threads))
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(parts.Mul(slices), func(b *dsl.Block, vb dsl.U32) {
			part := dsl.Let(b, vb.Div(slices))
			base := dsl.Let(b, vb.Rem(slices).Mul(capacity))
			used := dsl.Let(b, table.Len().Sub(base.Exp).Min(capacity))
			sh := dsl.Shared[uint32](b, shape.Copies*shape.Capacity)
			b.ForAll(used.Mul(dsl.N(uint32(shape.Copies))), func(t *dsl.Thread, i dsl.U32) { sh.Store(t, i, dsl.N(0)) })
			b.Sync()
			// Block part reads tiles part, part+parts, ... of keysAtOnce
			// rows of the block's threads.
			tile := threads.Mul(dsl.N(keysAtOnce))
			b.ForAll(threads, func(t *dsl.Thread, tid dsl.U32) {
				copyBase := dsl.Let(t, tid.Div(dsl.N(uint32(shape.Threads/shape.Copies))).Mul(used.Exp))
				arrays.EachBatch(t, arrays.FromArray(keys), part.Mul(tile).Add(tid), threads, parts.Mul(tile), keysAtOnce,
					func(t *dsl.Thread, batch arrays.Batch[uint32]) {
						batch.Each(t, func(t *dsl.Thread, _ dsl.U32, key dsl.U32) {
							inRange(t, key, lo, bins, bad, func(t *dsl.Thread, bin dsl.U32) {
								cell := dsl.Let(t, kind.cell(bin).Sub(base.Exp))
								t.If(cell.Lt(used.Exp), func(t *dsl.Thread) { kind.update(t, sh, copyBase.Add(cell.Exp), bin) })
							})
						})
					})
			})
			b.Sync()
			b.ForAll(used.Exp, func(t *dsl.Thread, i dsl.U32) {
				copies := arrays.Generate(dsl.N(uint32(shape.Copies)), func(c dsl.U32) dsl.U32 { return sh.At(used.Mul(c).Add(i)) })
				cell := dsl.Let(t, arrays.Fold(t, kind.combine, dsl.N(0), copies))
				t.If(cell.Ne(dsl.N(0)), func(t *dsl.Thread) { kind.merge(t, table, base.Add(i), cell.Exp) })
			})
		})
	})
	return k
}

// HistogramShapes returns the shapes of SharedHistogramKernels, in their
// order, smallest first: a host takes the first whose capacity holds its
// table, or the last cut into slices.
func HistogramShapes() []TableShape {
	return []TableShape{
		{Threads: 256, Copies: 8, Capacity: 1 << 10}, // a copy per warp: small ranges, most contended
		{Threads: 512, Copies: 1, Capacity: 1 << 13},
		{Threads: 1024, Copies: 1, Capacity: 1 << 15},
	}
}

// BitsShapes returns the shapes of SharedOccursKernels, in their order,
// smallest first.
func BitsShapes() []TableShape {
	return []TableShape{
		{Threads: 512, Copies: 1, Capacity: 1 << 13},  // 2^18 bins
		{Threads: 1024, Copies: 1, Capacity: 1 << 15}, // 2^20 bins
	}
}

// SharedHistogramKernels returns the histogram kernels with the counters
// privatised in shared memory, one per shape of HistogramShapes.
func SharedHistogramKernels() []*dsl.Kernel { return sharedTableKernels(counts, HistogramShapes()) }

// SharedHistogramKernel returns the histogram kernel of one of
// HistogramShapes.
func SharedHistogramKernel(s TableShape) *dsl.Kernel {
	return sharedTableKernel(counts, s)
}

// SharedOccursKernels returns the occurs kernels with a bitset privatised
// in shared memory, one per shape of BitsShapes.
func SharedOccursKernels() []*dsl.Kernel { return sharedTableKernels(bits, BitsShapes()) }

// SharedOccursKernel returns the occurs kernel of one of BitsShapes.
func SharedOccursKernel(s TableShape) *dsl.Kernel {
	return sharedTableKernel(bits, s)
}

// sharedTableKernels returns the kernels of kind, one per shape.
func sharedTableKernels(kind tableKind, shapes []TableShape) []*dsl.Kernel {
	ks := make([]*dsl.Kernel, len(shapes))
	for i, s := range shapes {
		ks[i] = sharedTableKernel(kind, s)
	}
	return ks
}

// shapeName names a shared-table kernel by its kind and shape, e.g.
// histogramShared1024x8 (8 copies of 1024 cells).
func shapeName(kind string, s TableShape) string {
	return fmt.Sprintf("%sShared%dx%d", kind, s.Capacity, s.Copies)
}
