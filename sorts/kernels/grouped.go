package kernels

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// The grouped histogram: a histogram of a range too wide for one block's
// shared memory, counted in shared memory all the same, by grouping the
// keys by their high bits first. The bins are cut into buckets of 2^shift
// bins, at most GroupBuckets of them, each small enough for a block's
// table (GroupedCapacity cells):
//
//	GroupTilesKernel: every tile of GroupTile keys is grouped by bucket
//	  (key-lo) >> shift in shared memory, each lane's place in its bucket
//	  reserved by arrays.WarpReserveHot, and written back in place, with
//	  each bucket's count in the tile (bucket-major: counts[k*tiles+tile])
//	  and its offset in the tile (tile-major: offsets[tile*buckets+k]);
//	the exclusive scan of the counts (the library's): runs, where each
//	  tile's run of bucket k starts in the order of the keys by bucket;
//	GroupedHistogramKernel: block p of parts counts an equal share of that
//	  order, [p*n/parts, (p+1)*n/parts): the runs it spans, bucket by bucket
//	  (one or two buckets a block, unless a bucket holds few keys), a warp
//	  a run, into a table of the bucket's bins in shared memory, whose
//	  non-zero cells it then adds to the global histogram.
//
// Each key is then read twice and written once, and the global histogram
// takes one atomic per cell of a block's table (coalesced) instead of one
// per key: for keys of 2^18 to 2^22 values, the global atomics of
// GlobalHistogramWarpKernel bound it by the L2 cache's atomic units (an
// entry of docs/performance.md). Every block counts as many keys whatever
// their values, and lanes with equal bins combine before they update the
// table (arrays.WarpAggregateHot), so that skewed keys cost no more than
// uniform ones. A key outside [lo, lo+bins) falls in the last bucket,
// sets the bad flag when it is counted and touches no bin.

const (
	// GroupBits is the width of the bucket of a grouped histogram's keys:
	// GroupBuckets buckets at most.
	GroupBits    = 8
	GroupBuckets = 1 << GroupBits
	// groupThreads is GroupTilesKernel's block, groupPerThread the keys
	// each thread holds: GroupTile keys a tile.
	groupThreads   = 512
	groupPerThread = 16
	GroupTile      = groupThreads * groupPerThread
	// GroupedCapacity is the cells of GroupedHistogramKernel's table, in
	// a block of groupedThreads: at most GroupBuckets*GroupedCapacity bins.
	GroupedCapacity = 1 << 14
	groupedThreads  = 512
	// groupedBatch is the rounds of keys a warp of GroupedHistogramKernel
	// loads before it counts them.
	groupedBatch = 4
	// GroupedMaxBins is the widest range a grouped histogram counts.
	GroupedMaxBins = GroupBuckets * GroupedCapacity
)

// GroupShift returns the shift of a grouped histogram of bins bins (2 to
// GroupedMaxBins): the fewest bits of a bin below the bucket's that leave
// at most GroupBuckets buckets, and the number of buckets.
func GroupShift(bins int) (shift, buckets int) {
	for (bins-1)>>shift >= GroupBuckets {
		shift++
	}
	return shift, (bins-1)>>shift + 1
}

// GroupTilesKernel returns the kernel that groups every tile of keys by
// bucket, min((key-lo) >> shift, buckets-1), writing the tile back in
// place to grouped (the keys of bucket 0 first, then those of bucket 1,
// ...; within a bucket in no set order) with counts[k*tiles + tile], the
// tile's keys of bucket k, and offsets[tile*buckets + k], where they start
// in the tile. buckets is 1 to GroupBuckets.
func GroupTilesKernel() *dsl.Kernel {
	k := dsl.NewKernel("groupTiles", groupThreads)
	keys := dsl.Input[uint32](k, "keys")
	lo := dsl.Param[uint32](k, "lo")
	shift := dsl.Param[uint32](k, "shift")
	buckets := dsl.Param[uint32](k, "buckets")
	grouped := dsl.Output[uint32](k, "grouped")
	counts := dsl.Output[uint32](k, "counts")
	offsets := dsl.Output[uint32](k, "offsets")
	k.Body(func(g *dsl.Grid) {
		n := keys.Len()
		tiles := dsl.Let(g, dsl.CeilDiv(n, dsl.N(GroupTile))).Exp
		last := dsl.Let(g, buckets.Max(dsl.N(1)).Min(dsl.N(GroupBuckets)).Sub(dsl.N(1))).Exp
		bucketOf := func(key dsl.U32) dsl.U32 { return key.Sub(lo).Shr(shift).Min(last) }
		g.ForAllBlocks(tiles, func(b *dsl.Block, tile dsl.U32) {
			first := dsl.Let(b, tile.Mul(dsl.N(GroupTile))).Exp
			count := dsl.Let(b, n.Sub(first).Min(dsl.N(GroupTile))).Exp
			sizes := dsl.Shared[uint32](b, GroupBuckets)
			starts := dsl.Shared[uint32](b, GroupBuckets)
			tileKeys := dsl.Shared[uint32](b, GroupTile)
			b.ForAll(dsl.N(GroupBuckets), func(t *dsl.Thread, d dsl.U32) { sizes.Store(t, d, dsl.N(0)) })
			b.Sync()
			held := dsl.Held[uint32](b, groupPerThread)
			slots := dsl.Held[uint32](b, groupPerThread)
			b.ForAll(dsl.N(groupThreads), func(t *dsl.Thread, tid dsl.U32) {
				// Every key is loaded before any is placed, so that the loads
				// are in flight together.
				for j := range groupPerThread {
					i := dsl.Let(t, tid.Add(dsl.N(uint32(j*groupThreads)))).Exp
					key := dsl.Let(t, dsl.N(0))
					t.If(i.Lt(count), func(t *dsl.Thread) { key.Set(keys.At(first.Add(i))) })
					held.Store(t, dsl.N(uint32(j)), key.Exp)
				}
				for j := range groupPerThread {
					// The lanes of the warp below valid hold keys: a prefix, as
					// the warp's keys are consecutive.
					warpFirst := dsl.Let(t, dsl.WarpIdx.Mul(dsl.N(ir.WarpSize)).Add(dsl.N(uint32(j*groupThreads)))).Exp
					valid := dsl.Select(count.Gt(warpFirst), count.Sub(warpFirst), dsl.N(0))
					cell := bucketOf(held.At(dsl.N(uint32(j))))
					slots.Store(t, dsl.N(uint32(j)), arrays.WarpReserveHot(t, sizes, cell, valid))
				}
			})
			b.Sync()
			arrays.ScanExclusive[*dsl.Block](dsl.U32.Add, dsl.N(0), arrays.FromArray(sizes)).Run(b, starts.Store)
			b.Sync()
			b.ForAll(dsl.N(groupThreads), func(t *dsl.Thread, tid dsl.U32) {
				for j := range groupPerThread {
					t.If(tid.Add(dsl.N(uint32(j*groupThreads))).Lt(count), func(t *dsl.Thread) {
						key := dsl.Let(t, held.At(dsl.N(uint32(j)))).Exp
						tileKeys.Store(t, starts.At(bucketOf(key)).Add(slots.At(dsl.N(uint32(j)))), key)
					})
				}
			})
			b.Sync()
			b.ForAll(count, func(t *dsl.Thread, i dsl.U32) { grouped.Store(t, first.Add(i), tileKeys.At(i)) })
			b.ForAll(last.Add(dsl.N(1)), func(t *dsl.Thread, d dsl.U32) {
				counts.Store(t, d.Mul(tiles).Add(tile), sizes.At(d))
				offsets.Store(t, tile.Mul(last.Add(dsl.N(1))).Add(d), starts.At(d))
			})
		})
	})
	return k
}

// GroupedHistogramKernel returns the kernel that counts the keys grouped
// by GroupTilesKernel (with the same lo, shift and buckets) into hist
// (zeroed by the host), bins long: runs is the exclusive scan of the
// tiles' counts with their total after it, offsets the tiles' offsets,
// and parts blocks share the keys. A key outside [lo, lo+bins) sets bad[0]
// and is not counted. bins is at most buckets << shift, and 1 << shift at
// most GroupedCapacity.
func GroupedHistogramKernel() *dsl.Kernel {
	k := dsl.NewKernel("groupedHistogram", groupedThreads)
	grouped := dsl.Input[uint32](k, "grouped")
	runs := dsl.Input[uint32](k, "runs")
	offsets := dsl.Input[uint32](k, "offsets")
	lo := dsl.Param[uint32](k, "lo")
	shift := dsl.Param[uint32](k, "shift")
	buckets := dsl.Param[uint32](k, "buckets")
	parts := dsl.Param[uint32](k, "parts")
	hist := dsl.InOut[uint32](k, "hist")
	bad := dsl.Output[uint32](k, "bad")
	const warps = groupedThreads / ir.WarpSize
	k.Body(func(g *dsl.Grid) {
		n := grouped.Len()
		tiles := dsl.Let(g, dsl.CeilDiv(n, dsl.N(GroupTile))).Exp
		width := dsl.Let(g, dsl.N(1).Shl(shift).Min(dsl.N(GroupedCapacity))).Exp
		entries := dsl.Let(g, buckets.Mul(tiles).Min(runs.Len().Max(dsl.N(1)).Sub(dsl.N(1)))).Exp
		starts := arrays.Take(entries.Add(dsl.N(1)), arrays.FromArray(runs))
		shares := dsl.Let(g, parts.Max(dsl.N(1))).Exp
		g.ForAllBlocks(shares, func(b *dsl.Block, part dsl.U32) {
			// The block's share of the keys in bucket order, [v0, v1).
			chunk, rest := n.Div(shares), n.Rem(shares)
			v0 := dsl.Let(b, part.Mul(chunk).Add(part.Min(rest))).Exp
			v1 := dsl.Let(b, v0.Add(chunk).Add(dsl.Select(part.Lt(rest), dsl.N(1), dsl.N(0)))).Exp
			// The runs it spans, [e0, e1): the last that starts at or before
			// v0, up to the first that starts at or after v1.
			span := dsl.Shared[uint32](b, 2)
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
				span.Store(t, dsl.N(0), arrays.UpperBound(t, starts, v0).Max(dsl.N(1)).Sub(dsl.N(1)))
				span.Store(t, dsl.N(1), arrays.LowerBound(t, starts, v1))
			})
			b.Sync()
			e0 := dsl.Let(b, span.At(dsl.N(0))).Exp
			e1 := dsl.Let(b, span.At(dsl.N(1)).Max(e0.Add(dsl.N(1)))).Exp
			table := dsl.Shared[uint32](b, GroupedCapacity)
			b.If(v0.Lt(v1), func(b *dsl.Block) {
				kFirst := dsl.Let(b, e0.Div(tiles)).Exp
				kLast := dsl.Let(b, e1.Sub(dsl.N(1)).Div(tiles)).Exp
				b.For(kLast.Sub(kFirst).Add(dsl.N(1)), func(b *dsl.Block, i dsl.U32) {
					bucket := dsl.Let(b, kFirst.Add(i)).Exp
					base := dsl.Let(b, bucket.Mul(width)).Exp
					from := dsl.Let(b, e0.Max(bucket.Mul(tiles))).Exp
					to := dsl.Let(b, e1.Min(bucket.Add(dsl.N(1)).Mul(tiles))).Exp
					b.ForAll(width, func(t *dsl.Thread, c dsl.U32) { table.Store(t, c, dsl.N(0)) })
					b.Sync()
					// Each warp takes chunks of ir.WarpSize runs, a lane a run, and
					// counts their keys as one sequence, a key a lane, finding
					// each key's run by a search over the lanes' offsets, so
					// that every lane counts a key in every round however long
					// the runs, and the loads of groupedBatch rounds are in
					// flight together.
					b.ForAll(dsl.N(groupedThreads), func(t *dsl.Thread, _ dsl.U32) {
						chunks := dsl.Let(t, dsl.CeilDiv(to.Sub(from), dsl.N(ir.WarpSize))).Exp
						mine := dsl.Select(chunks.Gt(dsl.WarpIdx), dsl.CeilDiv(chunks.Sub(dsl.WarpIdx), dsl.N(warps)), dsl.N(0))
						t.For(mine, func(t *dsl.Thread, r dsl.U32) {
							chunk := dsl.Let(t, dsl.WarpIdx.Add(r.Mul(dsl.N(warps))).Mul(dsl.N(ir.WarpSize)).Add(from)).Exp
							e := dsl.Let(t, chunk.Add(dsl.LaneIdx)).Exp
							has := dsl.Let(t, e.Lt(to)).Exp
							tile := dsl.Let(t, e.Sub(bucket.Mul(tiles))).Exp
							rs, re, off := dsl.Let(t, dsl.N(0)), dsl.Let(t, dsl.N(0)), dsl.Let(t, dsl.N(0))
							t.If(has, func(t *dsl.Thread) {
								rs.Set(starts.At(e))
								re.Set(starts.At(e.Add(dsl.N(1))))
								off.Set(offsets.At(tile.Mul(buckets).Add(bucket)))
							})
							a := dsl.Let(t, rs.Max(v0)).Exp
							z := dsl.Let(t, re.Min(v1)).Exp
							length := dsl.Let(t, dsl.Select(has.And(z.Gt(a)), z.Sub(a), dsl.N(0))).Exp
							src := dsl.Let(t, tile.Mul(dsl.N(GroupTile)).Add(off.Exp).Add(a.Sub(rs.Exp))).Exp
							incl := dsl.Let(t, arrays.WarpScan(t, dsl.U32.Add, length, dsl.N(ir.WarpSize))).Exp
							total := dsl.Let(t, dsl.Shuffle(t, dsl.ShuffleIdx, incl, dsl.N(ir.WarpSize-1))).Exp
							before := dsl.Let(t, incl.Sub(length)).Exp
							t.For(dsl.CeilDiv(total, dsl.N(ir.WarpSize*groupedBatch)), func(t *dsl.Thread, q dsl.U32) {
								var rows [groupedBatch]dsl.U32
								var bins [groupedBatch]dsl.Var[uint32]
								for u := range groupedBatch {
									rows[u] = dsl.Let(t, q.Mul(dsl.N(groupedBatch)).Add(dsl.N(uint32(u))).Mul(dsl.N(ir.WarpSize))).Exp
									at := dsl.Let(t, rows[u].Add(dsl.LaneIdx)).Exp
									// The key's run: the last lane whose run starts at or
									// before it (an empty run starts where the next does).
									run := dsl.Let(t, dsl.N(0))
									for step := ir.WarpSize / 2; step > 0; step /= 2 {
										next := run.Add(dsl.N(uint32(step)))
										run.Set(dsl.Select(dsl.Shuffle(t, dsl.ShuffleIdx, before, next).Le(at), next, run.Exp))
									}
									pos := dsl.Shuffle(t, dsl.ShuffleIdx, src, run.Exp).Add(at).Sub(dsl.Shuffle(t, dsl.ShuffleIdx, before, run.Exp))
									bins[u] = dsl.Let(t, dsl.N(noCell))
									t.If(at.Lt(total), func(t *dsl.Thread) {
										inRange(t, grouped.At(pos), lo, hist.Len(), bad, func(t *dsl.Thread, v dsl.U32) {
											bins[u].Set(v.Sub(base))
										})
									})
								}
								for u := range groupedBatch {
									valid := dsl.Select(total.Gt(rows[u]), total.Sub(rows[u]), dsl.N(0))
									leader, count := arrays.WarpAggregateHot(t, dsl.U32.Add, bins[u].Exp, dsl.N(1), valid)
									t.If(leader.And(bins[u].Lt(width)), func(t *dsl.Thread) { table.Atomic(t, dsl.AtomicAdd, bins[u].Exp, count) })
								}
							})
						})
					})
					b.Sync()
					b.ForAll(width, func(t *dsl.Thread, c dsl.U32) {
						v := dsl.Let(t, table.At(c)).Exp
						t.If(v.Ne(dsl.N(0)), func(t *dsl.Thread) { hist.Atomic(t, dsl.AtomicAdd, base.Add(c), v) })
					})
					b.Sync()
				})
			})
		})
	})
	return k
}
