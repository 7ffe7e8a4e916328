package arrays_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// badInput is a wrong use of the collectives: build returns what Build
// says about it, which must be an *ir.Error at the line of this file that
// carries the comment "// bad: <name>", saying want.
type badInput struct {
	name  string
	build func() error
	want  string
}

// inBlock builds a kernel of 64 threads whose one block runs body.
func inBlock(body func(b *dsl.Block, in, out dsl.Array[uint32])) error {
	k := dsl.NewKernel("bad", 64)
	in, out := dsl.Input[uint32](k, "input"), dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) { body(b, in, out) })
	})
	_, err := k.Build()
	return err
}

func badInputs() []badInput {
	var nilOp arrays.Op[uint32]
	var nilBlock *dsl.Block
	return []badInput{
		{"BlellochScan with a nil operator", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				scan, _ := arrays.BlellochScan(b, nilOp, dsl.N(0), arrays.Take(dsl.N(64), arrays.FromArray(in))) // bad: BlellochScan with a nil operator
				arrays.WriteTo(b, out, arrays.ToPush[*dsl.Block](scan))
			})
		}, "BlellochScan of a nil operator (Op)"},
		{"BlellochScan of an array of a length not constant", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				scan, _ := arrays.BlellochScan(b, dsl.U32.Add, dsl.N(0), arrays.FromArray(in)) // bad: BlellochScan of an array of a length not constant
				arrays.WriteTo(b, out, arrays.ToPush[*dsl.Block](scan))
			})
		}, "BlellochScan of an array whose length is not a constant"},
		{"Scan with a nil operator", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				scan := arrays.Scan[*dsl.Block](nilOp, arrays.FromArray(in)) // bad: Scan with a nil operator
				arrays.WriteTo(b, out, scan)
			})
		}, "Scan of a nil operator (Op)"},
		{"Reduce with a nil operator", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAllWarps(dsl.N(1), func(w *dsl.Warp, _ dsl.U32) {
					sum := arrays.Reduce[*dsl.Warp](nilOp, arrays.FromArray(in)) // bad: Reduce with a nil operator
					arrays.WriteTo(w, out, sum)
				})
			})
		}, "Reduce of a nil operator (Op)"},
		{"WarpScan with a nil operator", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					out.Store(t, i, arrays.WarpScan(t, nilOp, in.At(i), dsl.N(32))) // bad: WarpScan with a nil operator
				})
			})
		}, "WarpScan of a nil operator (Op)"},
		{"WarpReduce with a nil operator", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					out.Store(t, i, arrays.WarpReduce(t, nilOp, in.At(i), dsl.N(32))) // bad: WarpReduce with a nil operator
				})
			})
		}, "WarpReduce of a nil operator (Op)"},
		{"WarpScan in a ForAll of part of the warps", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(in.Len(), func(t *dsl.Thread, i dsl.U32) {
					s := arrays.WarpScan(t, dsl.U32.Add, in.At(i), dsl.N(32)) // bad: WarpScan in a ForAll of part of the warps
					out.Store(t, i, s)
				})
			})
		}, "a shuffle needs all 32 lanes of a warp: it must be in a WarpLanes ForAll of a count that is a multiple of 32 or a BlockThreads " +
			"ForAll of count 64"},
		{"WarpReduce under a condition of the lane", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					t.If(i.Lt(in.Len()), func(t *dsl.Thread) {
						s := arrays.WarpReduce(t, dsl.U32.Max, in.At(i), dsl.N(32)) // bad: WarpReduce under a condition of the lane
						out.Store(t, i, s)
					})
				})
			})
		}, "a shuffle needs all 32 lanes of a warp, but here it is under an if or a loop whose condition may differ"},
		{"BlockScan on a nil block", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				arrays.BlockScan(nilBlock, dsl.U32.Add, arrays.FromArray(in)) // bad: BlockScan on a nil block
			})
		}, "on a nil builder (*dsl.Block)"},
		{"Total of a zero Scanned", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				var s arrays.Scanned[uint32]
				b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
					out.Store(t, dsl.N(0), s.Total()) // bad: Total of a zero Scanned
				})
			})
		}, "Total of a zero Scanned (scans come from BlockScan)"},
		{"Inclusive of a zero Scanned", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				var s arrays.Scanned[uint32]
				arrays.WriteTo(b, out, s.Inclusive()) // bad: Inclusive of a zero Scanned
			})
		}, "Inclusive of a zero Scanned"},
		{"BlockScan written in another block body", func() error {
			k := dsl.NewKernel("bad", 64)
			in, out := dsl.Input[uint32](k, "input"), dsl.Output[uint32](k, "output")
			k.Body(func(g *dsl.Grid) {
				var s arrays.Scanned[uint32]
				g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) { s = arrays.BlockScan(b, dsl.U32.Add, arrays.FromArray(in)) })
				g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
					arrays.WriteTo(b, out, s.Inclusive()) // bad: BlockScan written in another block body
				})
			})
			_, err := k.Build()
			return err
		}, "but it belongs to the one at"},
		{"ScanExclusive with a zero identity", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				var identity dsl.U32
				arrays.WriteTo(b, out, arrays.ScanExclusive[*dsl.Block](dsl.U32.Add, identity, arrays.FromArray(in))) // bad: ScanExclusive with a zero identity
			})
		}, "use of a zero Exp"},
		{"store to an input through WriteTo", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				arrays.WriteTo(b, in, arrays.ToPush[*dsl.Block](arrays.FromArray(in))) // bad: store to an input through WriteTo
			})
		}, "store to array input, an input of the kernel"},
		{"WarpAggregate with a nil operator", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					leader, total := arrays.WarpAggregate(t, nilOp, in.At(i), dsl.N(1), dsl.N(32)) // bad: WarpAggregate with a nil operator
					t.If(leader, func(t *dsl.Thread) { out.Store(t, i, total) })
				})
			})
		}, "WarpAggregate of a nil operator (Op)"},
		{"WarpAggregateRuns with a nil operator", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					leader, total := arrays.WarpAggregateRuns(t, nilOp, in.At(i), dsl.N(1), dsl.N(32)) // bad: WarpAggregateRuns with a nil operator
					t.If(leader, func(t *dsl.Thread) { out.Store(t, i, total) })
				})
			})
		}, "WarpAggregateRuns of a nil operator (Op)"},
		{"WarpAggregate with a zero key", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				var key dsl.I64
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					leader, total := arrays.WarpAggregate(t, dsl.U32.Add, key, in.At(i), dsl.N(32)) // bad: WarpAggregate with a zero key
					t.If(leader, func(t *dsl.Thread) { out.Store(t, i, total) })
				})
			})
		}, "use of a zero Exp"},
		{"WarpAggregateRuns with a zero value", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				var x dsl.U32
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					leader, total := arrays.WarpAggregateRuns(t, dsl.U32.Max, in.At(i), x, dsl.N(32)) // bad: WarpAggregateRuns with a zero value
					t.If(leader, func(t *dsl.Thread) { out.Store(t, i, total) })
				})
			})
		}, "use of a zero Exp"},
		{"WarpAggregate in a ForAll of part of the warps", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(in.Len(), func(t *dsl.Thread, i dsl.U32) {
					leader, total := arrays.WarpAggregate(t, dsl.U32.Add, in.At(i), dsl.N(1), dsl.N(32)) // bad: WarpAggregate in a ForAll of part of the warps
					t.If(leader, func(t *dsl.Thread) { out.Store(t, i, total) })
				})
			})
		}, "a match needs all 32 lanes of a warp: it must be in a WarpLanes ForAll of a count that is a multiple of 32"},
		{"WarpAggregateRuns under a condition of the lane", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					t.If(i.Lt(in.Len()), func(t *dsl.Thread) {
						leader, total := arrays.WarpAggregateRuns(t, dsl.U32.Add, in.At(i), dsl.N(1), dsl.N(32)) // bad: WarpAggregateRuns under a condition of the lane
						t.If(leader, func(t *dsl.Thread) { out.Store(t, i, total) })
					})
				})
			})
		}, "a shuffle needs all 32 lanes of a warp, but here it is under an if or a loop whose condition may differ"},
		{"MatchAny of a uint16 through the DSL", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					out.Store(t, i, dsl.MatchAny(t, dsl.Cast[uint16](in.At(i)))) // bad: MatchAny of a uint16 through the DSL
				})
			})
		}, "match of a uint16 value; MatchAny compares 32 and 64-bit integers and floats"},
		{"Search with a nil predicate", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					out.Store(t, i, arrays.Search(t, in.Len(), nil)) // bad: Search with a nil predicate
				})
			})
		}, "Search with a nil predicate"},
		{"Partition with a nil predicate", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				arrays.WriteTo(b, out, arrays.Partition[*dsl.Block](nil, arrays.FromArray(in))) // bad: Partition with a nil predicate
			})
		}, "Partition with a nil predicate"},
		{"PartitionCount with a nil predicate at Warp level", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAllWarps(dsl.N(1), func(w *dsl.Warp, _ dsl.U32) {
					arrays.WriteTo(w, out, arrays.PartitionCount[*dsl.Warp](nil, arrays.FromArray(in))) // bad: PartitionCount with a nil predicate at Warp level
				})
			})
		}, "PartitionCount with a nil predicate"},
		{"LookBack of aggregates of no constant length", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				status := dsl.Shared[uint64](b, 64)
				arrays.LookBack(b, dsl.U32.Add, dsl.N(0), status, dsl.N(0), dsl.N(0), arrays.FromArray(in)) // bad: LookBack of aggregates of no constant length
			})
		}, "LookBack of aggregates whose length is not a constant"},
		{"LookBack of 64-bit values", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				status := dsl.Shared[uint64](b, 64)
				aggs := arrays.Generate(dsl.N(8), func(i dsl.U32) dsl.U64 { return dsl.Cast[uint64](i) })
				arrays.LookBack(b, dsl.U64.Add, dsl.Lit[uint64](0), status, dsl.N(0), dsl.N(0), aggs) // bad: LookBack of 64-bit values
			})
		}, "LookBack of uint64 values: its status words hold 32-bit values"},
		{"LookBackFrom of a seed of another length", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				status := dsl.Shared[uint64](b, 64)
				aggs := arrays.Replicate(dsl.N(8), dsl.N(1))
				arrays.LookBackFrom(b, dsl.U32.Add, dsl.N(0), arrays.Replicate(dsl.N(4), dsl.N(0)), status, dsl.N(0), dsl.N(0), aggs, 1) // bad: LookBackFrom of a seed of another length
			})
		}, "LookBackFrom of a seed whose length is not the aggregates' 8"},
		{"Prefixes of a zero LookBackPublished", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				var published arrays.LookBackPublished[uint32]
				published.Prefixes(b, 1) // bad: Prefixes of a zero LookBackPublished
			})
		}, "Prefixes of a zero LookBackPublished (they come from LookBackPublish)"},
		{"Prefixes with a window of 0 tiles", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				status := dsl.Shared[uint64](b, 64)
				aggs := arrays.Replicate(dsl.N(8), dsl.N(1))
				seed := arrays.Replicate(dsl.N(8), dsl.N(0))
				arrays.LookBackPublish(b, dsl.U32.Add, dsl.N(0), seed, status, dsl.N(0), dsl.N(0), aggs).Prefixes(b, 0) // bad: Prefixes with a window of 0 tiles
			})
		}, "a window of 0 tiles"},
		{"BlockMultisplit of 0-bit digits", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				arrays.BlockMultisplit(b, 0, arrays.FromArray(in), digitOf) // bad: BlockMultisplit of 0-bit digits
			})
		}, "BlockMultisplit of digits of 0 bits: bits must be 1 to 8"},
		{"BlockMultisplit of 9-bit digits", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				arrays.BlockMultisplit(b, 9, arrays.FromArray(in), digitOf) // bad: BlockMultisplit of 9-bit digits
			})
		}, "BlockMultisplit of digits of 9 bits: bits must be 1 to 8"},
		{"Ranks of a BlockMultisplit that failed", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				m := arrays.BlockMultisplit(b, 9, arrays.FromArray(in), digitOf)
				arrays.WriteTo(b, out, m.Ranks()) // bad: Ranks of a BlockMultisplit that failed
			})
		}, "Ranks of a failed BlockMultisplit of digits of 9 bits"},
		{"BlockMultisplit with a nil digit function", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				arrays.BlockMultisplit[uint32](b, 4, arrays.FromArray(in), nil) // bad: BlockMultisplit with a nil digit function
			})
		}, "BlockMultisplit with a nil digit function"},
		{"Counts of a zero Multisplit", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				var m arrays.Multisplit
				arrays.WriteTo(b, out, arrays.ToPush[*dsl.Block](m.Counts())) // bad: Counts of a zero Multisplit
			})
		}, "Counts of a zero Multisplit (multisplits come from BlockMultisplit)"},
		{"WarpPeers of 9-bit digits", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					out.Store(t, i, arrays.WarpPeers(t, in.At(i), 9)) // bad: WarpPeers of 9-bit digits
				})
			})
		}, "WarpPeers of digits of 9 bits"},
		{"BlockMultisplit sorted into too much shared memory", func() error {
			k := dsl.NewKernel("bad", 1024)
			in, out := dsl.Input[uint64](k, "input"), dsl.Output[uint64](k, "output")
			k.Body(func(g *dsl.Grid) {
				g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
					keys := arrays.Take(dsl.N(1<<15), arrays.FromArray(in)) // 256 KiB of keys
					m := arrays.BlockMultisplit(b, 8, keys, func(k dsl.U64) dsl.U32 { return dsl.Cast[uint32](k) })
					sorted := arrays.Force(b, arrays.ScatterByRank(m.Ranks(), keys)) // bad: BlockMultisplit sorted into too much shared memory
					arrays.WriteTo(b, out, arrays.ToPush[*dsl.Block](sorted))
				})
			})
			_, err := k.Build()
			return err
		}, "over the limit"},
		// Compute at Thread and Warp level.
		{"Local array too large for a thread", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					loc := dsl.Local[uint32](t, 1<<20) // bad: Local array too large for a thread
					loc.Store(t, dsl.N(0), i)
				})
			})
		}, "a thread's array may have at most 16384 bytes"},
		{"Compute at Thread level of a length that is not a constant", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					c := arrays.Compute(t, arrays.Take(i, arrays.FromArray(in))) // bad: Compute at Thread level of a length that is not a constant
					out.Store(t, i, c.At(dsl.N(0)))
				})
			})
		}, "Compute or Force of an array whose length is not a constant"},
		{"ComputeInto at Warp level of an array longer than the region", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAllWarps(dsl.N(2), func(w *dsl.Warp, _ dsl.U32) {
					region := dsl.WarpShared[uint32](w, 8)
					arrays.ComputeInto(w, region, arrays.Take(dsl.N(16), arrays.FromArray(in))) // bad: ComputeInto at Warp level of an array longer than the region
				})
			})
		}, "ComputeInto of an array of 16 elements into wsh, an array of 8"},
		{"Compute at Warp level read outside its warp body", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				var c arrays.Pull[uint32]
				b.ForAllWarps(dsl.N(2), func(w *dsl.Warp, _ dsl.U32) {
					c = arrays.Compute(w, arrays.Take(dsl.N(32), arrays.FromArray(in)))
				})
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					out.Store(t, i, c.At(dsl.LaneOf(i))) // bad: Compute at Warp level read outside its warp body
				})
			})
		}, "warp-private shared array wsh (allocated at"},
		{"Compute at Warp level read in another warp body", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				var c arrays.Pull[uint32]
				b.ForAllWarps(dsl.N(2), func(w *dsl.Warp, _ dsl.U32) {
					c = arrays.Compute(w, arrays.Take(dsl.N(32), arrays.FromArray(in)))
				})
				b.ForAllWarps(dsl.N(2), func(w *dsl.Warp, wid dsl.U32) {
					w.ForAll(dsl.N(32), func(t *dsl.Thread, i dsl.U32) {
						out.Store(t, i, c.At(i)) // bad: Compute at Warp level read in another warp body
					})
				})
			})
		}, "but it belongs to the one at"},
		{"Compute at Thread level read by another thread body", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				var c arrays.Pull[uint32]
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					c = arrays.Compute(t, arrays.Take(dsl.N(4), arrays.FromArray(in)))
				})
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					out.Store(t, i, c.At(dsl.N(0))) // bad: Compute at Thread level read by another thread body
				})
			})
		}, "local array loc (allocated at"},
		{"atomic on a local array", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					loc := dsl.Local[uint32](t, 4)
					loc.Store(t, dsl.N(0), i)
					loc.Atomic(t, dsl.AtomicAdd, dsl.N(0), i) // bad: atomic on a local array
				})
			})
		}, "a local array: a thread's own array needs no atomics"},
		{"held array read by the block", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				h := dsl.Held[uint32](b, 4)
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) { h.Store(t, dsl.N(0), in.At(i)) })
				first := dsl.Let(b, h.At(dsl.N(0))) // bad: held array read by the block
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, first.Exp) })
			})
		}, "is used in Block-level code: each thread holds its own elements"},
		{"held array used in another block body", func() error {
			k := dsl.NewKernel("bad", 64)
			in, out := dsl.Input[uint32](k, "input"), dsl.Output[uint32](k, "output")
			var h dsl.Array[uint32]
			k.Body(func(g *dsl.Grid) {
				g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
					h = dsl.Held[uint32](b, 4)
					b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) { h.Store(t, dsl.N(0), in.At(i)) })
				})
				g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
					b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
						out.Store(t, i, h.At(dsl.N(0))) // bad: held array used in another block body
					})
				})
			})
			_, err := k.Build()
			return err
		}, "but it belongs to the one at"},
		{"atomic on a held array", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				h := dsl.Held[uint32](b, 4)
				b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
					h.Store(t, dsl.N(0), i)
					h.Atomic(t, dsl.AtomicAdd, dsl.N(0), i) // bad: atomic on a held array
				})
			})
		}, "a local array: a thread's own array needs no atomics"},
		{"NewHeld of too many elements per thread", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				h := arrays.NewHeld[uint32](b, 33, dsl.N(64)) // bad: NewHeld of too many elements per thread
				h.Load(b, arrays.FromArray(in))
			})
		}, "NewHeld of 33 elements per thread: want 1 to 32"},
		{"NewHeld of more elements than the threads hold", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				h := arrays.NewHeld[uint32](b, 2, dsl.N(129)) // bad: NewHeld of more elements than the threads hold
				h.Load(b, arrays.FromArray(in))
			})
		}, "NewHeld of 129 elements in 64 threads of 2: they hold at most 128"},
		{"ScatterBy ranks held otherwise", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				h := arrays.NewHeld[uint32](b, 4, dsl.N(64))
				h.Load(b, arrays.FromArray(in))
				ranks := arrays.NewHeld[uint32](b, 2, dsl.N(64))
				ranks.Load(b, arrays.FromArray(in))
				arrays.WriteTo(b, out, h.ScatterBy(ranks)) // bad: ScatterBy ranks held otherwise
			})
		}, "ScatterBy of elements held (4 per thread by 64 threads, warp-striped) by ranks held (2 per thread by 64 threads, warp-striped)"},
		{"ScatterBy of blocked elements by warp-striped ranks", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				h := arrays.NewHeldBlocked[uint32](b, 2, dsl.N(64))
				h.Load(b, arrays.FromArray(in))
				ranks := arrays.NewHeld[uint32](b, 2, dsl.N(64))
				ranks.Load(b, arrays.FromArray(in))
				arrays.WriteTo(b, out, h.ScatterBy(ranks)) // bad: ScatterBy of blocked elements by warp-striped ranks
			})
		}, "ScatterBy of elements held (2 per thread by 64 threads, blocked) by ranks held (2 per thread by 64 threads, warp-striped)"},
		{"BlockMultisplitHeld of blocked keys", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				h := arrays.NewHeldBlocked[uint32](b, 2, dsl.N(64))
				h.Load(b, arrays.FromArray(in))
				arrays.BlockMultisplitHeld(b, 4, h, func(k dsl.U32) dsl.U32 { return k }) // bad: BlockMultisplitHeld of blocked keys
			})
		}, "BlockMultisplitHeld of keys held blocked (NewHeldBlocked)"},
		{"NewMultisplitCounters of digits too wide", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				arrays.NewMultisplitCounters(b, 9) // bad: NewMultisplitCounters of digits too wide
			})
		}, "NewMultisplitCounters of digits of 9 bits: bits must be 1 to 8"},
		{"BlockMultisplitHeldOn of counters not made", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				h := arrays.NewHeld[uint32](b, 2, dsl.N(64))
				h.Load(b, arrays.FromArray(in))
				var counters arrays.MultisplitCounters
				arrays.BlockMultisplitHeldOn(b, counters, h, func(k dsl.U32) dsl.U32 { return k }) // bad: BlockMultisplitHeldOn of counters not made
			})
		}, "BlockMultisplitHeldOn of counters not made by NewMultisplitCounters"},
		{"BlockMultisplitCounted of warp-striped keys", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				h := arrays.NewHeld[uint32](b, 2, dsl.N(64))
				h.Load(b, arrays.FromArray(in))
				arrays.BlockMultisplitCounted(b, 4, h, func(k dsl.U32) dsl.U32 { return k }) // bad: BlockMultisplitCounted of warp-striped keys
			})
		}, "BlockMultisplitCounted of keys held warp-striped (NewHeld)"},
		{"BlockMultisplitCounted of digits too wide", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				h := arrays.NewHeldBlocked[uint32](b, 2, dsl.N(64))
				h.Load(b, arrays.FromArray(in))
				arrays.BlockMultisplitCounted(b, 6, h, func(k dsl.U32) dsl.U32 { return k }) // bad: BlockMultisplitCounted of digits too wide
			})
		}, "BlockMultisplitCounted of digits of 6 bits: bits must be 1 to 5"},
		{"BlockMultisplitCounted with no digit function", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				h := arrays.NewHeldBlocked[uint32](b, 2, dsl.N(64))
				h.Load(b, arrays.FromArray(in))
				arrays.BlockMultisplitCounted[uint32](b, 4, h, nil) // bad: BlockMultisplitCounted with no digit function
			})
		}, "BlockMultisplitCounted with a nil digit function"},
		{"NewHeldBlocked of more elements than the threads hold", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				h := arrays.NewHeldBlocked[uint32](b, 2, dsl.N(129)) // bad: NewHeldBlocked of more elements than the threads hold
				h.Load(b, arrays.FromArray(in))
			})
		}, "NewHeldBlocked of 129 elements in 64 threads of 2: they hold at most 128"},
		{"HeldRanks of keys in an array", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				m := arrays.BlockMultisplit(b, 4, arrays.FromArray(in), func(k dsl.U32) dsl.U32 { return k })
				m.HeldRanks(b) // bad: HeldRanks of keys in an array
			})
		}, "HeldRanks of a multisplit of keys in an array"},
		{"BlockMultisplitHeld of a zero Held", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				var h arrays.Held[uint32]
				arrays.BlockMultisplitHeld(b, 4, h, func(k dsl.U32) dsl.U32 { return k }) // bad: BlockMultisplitHeld of a zero Held
			})
		}, "a zero Held (held arrays come from NewHeld)"},
		{"Push of a zero Held", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				var h arrays.Held[uint32]
				h.Push().Run(b, out.Store) // bad: Push of a zero Held
			})
		}, "Push of a zero Held"},
	}
}

// TestBadInputCatalogue builds every wrong use of the collectives, and of
// pairs, matrices and the sequential scans (pairs_catalogue_test.go), each
// under a deadline and with panics recovered, and checks that Build
// rejects it with an *ir.Error at the marked line saying what is wrong.
func TestBadInputCatalogue(t *testing.T) {
	const deadline = 10 * time.Second
	catalogues := []struct {
		file string // where the rows' markers are
		rows []badInput
	}{{"catalogue_test.go", badInputs()}, {"pairs_catalogue_test.go", pairsShapesSeqBadInputs()}}
	for _, cat := range catalogues {
		for _, c := range cat.rows {
			t.Run(c.name, func(t *testing.T) { runBadInput(t, cat.file, c, deadline) })
		}
	}
}

// runBadInput builds c under deadline, with panics recovered, and checks
// that Build rejects it with an *ir.Error at the line of file marked for
// it.
func runBadInput(t *testing.T, file string, c badInput, deadline time.Duration) {
	type result struct {
		err   error
		panic any
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{panic: r}
			}
		}()
		done <- result{err: c.build()}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(deadline):
		t.Fatalf("still building after %v", deadline)
	}
	if r.panic != nil {
		t.Fatalf("panic: %v", r.panic)
	}
	if r.err == nil {
		t.Fatal("Build accepted a wrong program")
	}
	line := markerLine(t, file, c.name)
	if !errorAt(r.err, file, line, c.want) {
		t.Errorf("no *ir.Error at %s:%d saying %q:\n%v", file, line, c.want, r.err)
	}
}

// markerLine returns the line of file that carries "// bad: <name>".
func markerLine(t *testing.T, file, name string) int {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(l, "// bad: "+name) {
			return i + 1
		}
	}
	t.Fatalf("no marker %q", name)
	return 0
}

// errorAt reports whether err (a tree of joined errors) holds an
// *ir.Error at line of the file of that base name whose message contains
// want.
func errorAt(err error, file string, line int, want string) bool {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, x := range joined.Unwrap() {
			if errorAt(x, file, line, want) {
				return true
			}
		}
		return false
	}
	var e *ir.Error
	return errors.As(err, &e) && filepath.Base(e.Pos.File) == file && e.Pos.Line == line && strings.Contains(e.Msg, want)
}
