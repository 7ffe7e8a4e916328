package arrays

import (
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// tiles is how the n elements of an array are dealt to the warps of a
// group for the ballot collectives (Partition, Multisplit): in tiles of
// ir.WarpSize consecutive elements, lane l of a warp holding element l of
// each of its tiles, and each warp holding a run of consecutive tiles
// (CUB's warp-striped arrangement: the lanes read neighbouring addresses).
type tiles struct {
	n, count, perWarp dsl.U32
	even              bool // every warp has perWarp tiles
	// padded: tiles were dealt for more elements than n, and those past n
	// are skipped.
	padded bool
}

// dealTiles returns how n elements are dealt to warps warps, computed once
// in p.
func dealTiles(p dsl.Program, n dsl.U32, warps int) tiles {
	count := dsl.Let(p, dsl.CeilDiv(n, dsl.N(ir.WarpSize)))
	perWarp := dsl.Let(p, dsl.CeilDiv(count.Exp, dsl.N(uint32(max(warps, 1)))))
	return tiles{n: n, count: count.Exp, perWarp: perWarp.Exp}
}

// dealTilesUpTo returns how at most most elements, n of them, are dealt
// to warps warps, in tiles and runs of constant length: the elements' warps
// are those of most elements, and the tiles past n are empty.
func dealTilesUpTo(n dsl.U32, most uint32, warps int) tiles {
	count := (most + ir.WarpSize - 1) / ir.WarpSize
	w := uint32(max(warps, 1))
	perWarp := (count + w - 1) / w
	return tiles{n: n, count: dsl.N(count), perWarp: dsl.N(perWarp), even: count == perWarp*w, padded: true}
}

// ofWarp returns the first tile of warp w and its number of tiles (0 for a
// warp past the last tile), the same in every lane of the warp: a constant
// when every warp has as many.
func (r tiles) ofWarp(w dsl.U32) (first, count dsl.U32) {
	first = w.Mul(r.perWarp)
	if r.even {
		return first, r.perWarp
	}
	return first, dsl.Select(first.Lt(r.count), r.perWarp.Min(r.count.Sub(first)), dsl.N(0))
}

// each runs body in the lane lane of a warp for the count tiles from first,
// in order: i is the lane's element of the tile and valid whether it is
// below n. Every lane of the warp runs every tile, so body may ballot.
func (r tiles) each(t *dsl.Thread, first, count, lane dsl.U32, body func(t *dsl.Thread, i dsl.U32, valid dsl.Bool)) {
	t.For(count, func(t *dsl.Thread, j dsl.U32) {
		start := dsl.Let(t, first.Add(j).Mul(dsl.N(ir.WarpSize))) // below 2^32: the tile is below ceil(n/32) or ceil(most/32)
		i := dsl.Let(t, start.Add(lane))
		if !r.padded {
			body(t, i.Exp, i.Lt(r.n))
			return
		}
		// The same in every lane of the warp: the whole warp skips the tile.
		t.If(start.Lt(r.n), func(t *dsl.Thread) { body(t, i.Exp, i.Lt(r.n)) })
	})
}

// clamped returns element i of a, or its last element for an i past the
// end, so that the lanes past the end of the last tile read in bounds
// (a is not empty when a tile exists).
func clamped[T dsl.Scalar](a Pull[T], i dsl.U32) dsl.Exp[T] { return a.At(i.Min(a.n.Sub(dsl.N(1)))) }

// lanesBelowMask returns the mask of the lanes of the warp below lane.
func lanesBelowMask(lane dsl.U32) dsl.U32 { return dsl.N(1).Shl(lane).Sub(dsl.N(1)) }

// Partition returns the stable partition of a by pred as a Push array of
// level P: the elements where pred holds first, then the others, each
// group in the order of a. It is ScatterByRank of PartitionRanks: see
// there for how it runs. The array written must not be a (the elements are
// read twice, while others are being written).
func Partition[P Collective, T dsl.Scalar](pred func(dsl.Exp[T]) dsl.Bool, a Pull[T]) Push[P, T] {
	s := newSplit("Partition", pred, a)
	return ScatterByRank(Push[P, uint32]{n: a.n, run: func(p P, w Writer[uint32]) { splitAt(p, s, w, nil) }}, a)
}

// PartitionRanks returns, at index i, the index element i of a goes to in
// the stable partition of a by pred (see Partition), as a Push array of
// level P: with ScatterByRank, the values of key-value pairs follow their
// keys. The elements are dealt to the warps (one warp for P = *dsl.Warp)
// in tiles of ir.WarpSize consecutive elements, a lane per element; each
// warp counts the elements where pred holds by a ballot per tile; at Block
// level the warps' counts meet in shared memory (one barrier) and each warp
// scans them with WarpScanExclusive; each warp then goes over its tiles
// again, each element's rank being the number of elements before it in its
// group (popcounts of the tile's ballot below its lane) after those of the
// groups before it. pred is called twice per element.
func PartitionRanks[P Collective, T dsl.Scalar](pred func(dsl.Exp[T]) dsl.Bool, a Pull[T]) Push[P, uint32] {
	s := newSplit("PartitionRanks", pred, a)
	return Push[P, uint32]{n: a.n, run: func(p P, w Writer[uint32]) { splitAt(p, s, w, nil) }}
}

// PartitionCount returns the number of elements of a where pred holds, as
// a Push array of one element at level P (Force it to read it in the
// block's code, or write it where the program needs it): the warps count
// as for PartitionRanks, without the second pass.
func PartitionCount[P Collective, T dsl.Scalar](pred func(dsl.Exp[T]) dsl.Bool, a Pull[T]) Push[P, uint32] {
	s := newSplit("PartitionCount", pred, a)
	return Push[P, uint32]{n: dsl.N(1), run: func(p P, w Writer[uint32]) { splitAt(p, s, nil, w) }}
}

// ScatterByRank writes vals[i] at the index that ranks writes at index i,
// for every i below the length of ranks: ranks is a permutation such as
// PartitionRanks or Multisplit.Ranks give, and the result the permuted
// vals, so that the values of key-value pairs follow their keys. ranks is
// run once, reading vals[i] where it writes index i.
func ScatterByRank[P dsl.Parallel, T dsl.Scalar](ranks Push[P, uint32], vals Pull[T]) Push[P, T] {
	return Push[P, T]{n: ranks.n, run: func(p P, w Writer[T]) {
		ranks.Run(p, func(t *dsl.Thread, i, rank dsl.U32) { w(t, rank, vals.At(i)) })
	}}
}

// split is a partition being built: whether pred holds for each element of
// an array, by a ballot per tile.
type split[T dsl.Scalar] struct {
	pred func(dsl.Exp[T]) dsl.Bool
	a    Pull[T]
}

// newSplit returns the split of a by pred; a nil pred makes every use an
// error at the user's line that called what.
func newSplit[T dsl.Scalar](what string, pred func(dsl.Exp[T]) dsl.Bool, a Pull[T]) split[T] {
	if pred == nil {
		bad := dsl.Invalid[bool](what + " with a nil predicate: give a function of an element to a Bool")
		pred = func(dsl.Exp[T]) dsl.Bool { return bad }
	}
	return split[T]{pred: pred, a: a}
}

// ballot returns the mask of the lanes whose element i is one of the array
// and satisfies pred.
func (s split[T]) ballot(t *dsl.Thread, i dsl.U32, valid dsl.Bool) dsl.U32 {
	return dsl.Let(t, dsl.Ballot(t, valid.And(s.pred(clamped(s.a, i))))).Exp
}

// count returns, in every lane, the number of elements of the count tiles
// from first that satisfy pred.
func (s split[T]) count(t *dsl.Thread, r tiles, first, count, lane dsl.U32) dsl.U32 {
	total := dsl.Let(t, dsl.N(0))
	r.each(t, first, count, lane, func(t *dsl.Thread, i dsl.U32, valid dsl.Bool) {
		total.Set(total.Add(s.ballot(t, i, valid).PopCount()))
	})
	return total.Exp
}

// write writes the rank of every element of the count tiles from first,
// given the number of elements before the first tile that satisfy pred
// (before) and the total of the array (holding).
func (s split[T]) write(t *dsl.Thread, r tiles, first, count, lane, before, holding dsl.U32, w Writer[uint32]) {
	trues := dsl.Let(t, before) // the elements before the tile that satisfy pred
	below := dsl.Let(t, lanesBelowMask(lane))
	r.each(t, first, count, lane, func(t *dsl.Thread, i dsl.U32, valid dsl.Bool) {
		votes := s.ballot(t, i, valid)
		truesBelow := dsl.Let(t, votes.And(below.Exp).PopCount())
		holds := votes.Shr(lane).And(dsl.N(1)).Eq(dsl.N(1))
		// Every element before i is before it in one group or the other.
		falsesBefore := i.Sub(trues.Exp).Sub(truesBelow.Exp)
		t.If(valid, func(t *dsl.Thread) {
			w(t, i, dsl.Select(holds, trues.Add(truesBelow.Exp), holding.Add(falsesBefore)))
		})
		trues.Set(trues.Add(votes.PopCount()))
	})
}

// splitAt records the partition s in p, writing the ranks through ranks
// and the count through count where they are not nil.
func splitAt[P Collective, T dsl.Scalar](p P, s split[T], ranks, count Writer[uint32]) {
	switch p := any(p).(type) {
	case *dsl.Warp:
		warpSplit(p, s, ranks, count)
	case *dsl.Block:
		blockSplit(p, s, ranks, count)
	}
}

// warpSplit is splitAt for a warp: its lanes count, then write.
func warpSplit[T dsl.Scalar](wp *dsl.Warp, s split[T], ranks, count Writer[uint32]) {
	r := dealTiles(wp, s.a.n, 1)
	wp.ForAll(dsl.N(ir.WarpSize), func(t *dsl.Thread, lane dsl.U32) {
		holding := s.count(t, r, dsl.N(0), r.count, lane)
		if count != nil {
			t.If(lane.Eq(dsl.N(0)), func(t *dsl.Thread) { count(t, dsl.N(0), holding) })
		}
		if ranks != nil {
			s.write(t, r, dsl.N(0), r.count, lane, dsl.N(0), holding, ranks)
		}
	})
}

// blockSplit is splitAt for a block: each warp counts its tiles into
// shared memory; after a barrier every warp scans the warps' counts with
// WarpScanExclusive and WarpReduce, and writes.
func blockSplit[T dsl.Scalar](b *dsl.Block, s split[T], ranks, count Writer[uint32]) {
	threads := b.Threads()
	warps := max(threads/ir.WarpSize, 1)
	r := dealTiles(b, s.a.n, warps)
	warpCounts := dsl.Shared[uint32](b, warps)
	b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
		first, n := r.ofWarp(dsl.WarpIdx)
		c := s.count(t, r, first, n, dsl.LaneOf(tid))
		t.If(dsl.LaneOf(tid).Eq(dsl.N(0)), func(t *dsl.Thread) { warpCounts.Store(t, dsl.WarpIdx, c) })
	})
	b.Sync()
	b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
		lane, nw := dsl.LaneOf(tid), dsl.N(uint32(warps))
		c := dsl.Let(t, dsl.Select(lane.Lt(nw), warpCounts.At(lane.Min(nw.Sub(dsl.N(1)))), dsl.N(0)))
		before := WarpScanExclusive(t, dsl.U32.Add, dsl.N(0), c.Exp, nw)
		holding := dsl.Let(t, WarpReduce(t, dsl.U32.Add, c.Exp, nw))
		if count != nil {
			t.If(tid.Eq(dsl.N(0)), func(t *dsl.Thread) { count(t, dsl.N(0), holding.Exp) })
		}
		if ranks != nil {
			mine := dsl.Shuffle(t, dsl.ShuffleIdx, before, dsl.WarpIdx)
			first, n := r.ofWarp(dsl.WarpIdx)
			s.write(t, r, first, n, lane, mine, holding.Exp, ranks)
		}
	})
}
