package arrays

import (
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// The device-wide scan: a single pass with decoupled look-back (Merrill and
// Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
// 2016; CUB's DeviceScan). The input is cut into tiles of DeviceScanTile
// elements, one per virtual block. A block takes its tile from an atomic
// counter, so that the tiles are taken in the order the blocks start and a
// block waits only for blocks that have started. It reads its tile once
// (coalesced rows through shared memory), scans it, and publishes the
// tile's total (its aggregate) in the tile's status word. One warp then
// looks back over the status words of the tiles before it, 32 at a time:
// it waits until none of the 32 is still unpublished, finds with a ballot
// the nearest one that holds its inclusive prefix (the total of every tile
// up to it), and combines that with the aggregates of the tiles between
// with a warp reduction; it goes on to the 32 before only when none holds
// an inclusive prefix. The block publishes its own inclusive prefix and
// writes its tile once, each element raised by the prefix of the tiles
// before it. Each element is read once and written once, in one launch.
//
// A status word is 64 bits: the flag (statusEmpty, statusAggregate or
// statusInclusive) in the high half, the value's 32 bits in the low half,
// written and read with one atomic access, so the value arrives with its
// flag (which is why DeviceScan takes 32-bit element types only).

const (
	// DeviceScanThreads is the number of threads per block of the scan.
	DeviceScanThreads = 256
	// devScanPerThread is the number of consecutive elements each thread
	// scans in registers.
	devScanPerThread = 16
	// DeviceScanTile is the number of elements of a tile.
	DeviceScanTile  = DeviceScanThreads * devScanPerThread
	devScanWarps    = DeviceScanThreads / ir.WarpSize
	devScanRowWarps = ir.WarpSize * devScanPerThread / DeviceScanThreads // rows a warp's elements fill
	// devScanRowStride is the distance in shared memory between rows of a
	// tile: the row's elements and a word of padding after each warp's.
	devScanRowStride = DeviceScanThreads + DeviceScanThreads/ir.WarpSize
)

// The flags of a status word.
const (
	statusEmpty     = 0 // nothing published yet
	statusAggregate = 1 // the tile's total
	statusInclusive = 2 // the total of the tiles up to and including it
)

// DeviceScanStateLen returns the number of uint64 words of the state a scan
// of n elements takes: the tile counter, then one status word per tile. The
// state must be zero when the scan starts.
func DeviceScanStateLen(n uint32) uint64 {
	return 1 + uint64((uint64(n)+DeviceScanTile-1)/DeviceScanTile)
}

// DeviceScanKernel returns the kernel of the device-wide scan of its input
// in under op, into out: the inclusive scan (in_0 op ... op in_i at i), or
// with exclusive the exclusive one (identity op in_0 op ... op in_(i-1)).
// identity must be op's identity; op need not be commutative. The elements
// must be 32 bits (int32, uint32, float32): any other type is an error of
// the kernel. For floats, the grouping of the operations depends on the
// order the blocks run in.
//
// Its parameters are in (Input), out (Output, as long as in) and state
// (InOut, at least DeviceScanStateLen(len(in)) words, all zero). The host
// launches it with at most DeviceScanStateLen(len(in)) - 1 blocks, the
// number of tiles; every block takes its tiles from the counter in
// state[0], so any number of blocks finishes. out may be in.
func DeviceScanKernel[T dsl.Number](name string, op Op[T], identity dsl.Exp[T], exclusive bool) *dsl.Kernel {
	op = op.orInvalid("DeviceScanKernel")
	k := dsl.NewKernel(name, DeviceScanThreads)
	in := dsl.Input[T](k, "in")
	out := dsl.Output[T](k, "out")
	state := dsl.InOut[uint64](k, "state")
	k.Body(func(g *dsl.Grid) {
		if dsl.TypeOf[T]().Size() != 4 {
			dsl.Let(g, dsl.Invalid[T]("DeviceScanKernel of "+dsl.TypeOf[T]().String()+
				" elements: its status words hold 32-bit values (int32, uint32, float32)"))
			return
		}
		n := in.Len()
		tiles := dsl.CeilDiv(n, dsl.N(DeviceScanTile))
		g.ForAllBlocks(tiles, func(b *dsl.Block, _ dsl.U32) {
			s := devScan[T]{op: op, identity: identity, in: in, out: out, state: state}
			s.tile(b, exclusive)
		})
	})
	return k
}

// devScan is what the blocks of a device scan share.
type devScan[T dsl.Number] struct {
	op       Op[T]
	identity dsl.Exp[T]
	in, out  dsl.Array[T]
	state    dsl.Array[uint64]
}

// tile records the scan of one tile by block b.
func (s devScan[T]) tile(b *dsl.Block, exclusive bool) {
	ticket := dsl.Shared[uint32](b, 1)
	elems := dsl.Shared[T](b, devScanPerThread*devScanRowStride)
	warpTotals := dsl.Shared[T](b, devScanWarps)
	rowPrefix := dsl.Shared[T](b, devScanWarps)
	b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
		ticket.Store(t, dsl.N(0), dsl.Cast[uint32](s.state.Fetch(t, dsl.AtomicAdd, dsl.N(0), dsl.Lit[uint64](1))))
	})
	b.Sync()
	tile := dsl.Let(b, ticket.At(dsl.N(0))).Exp
	first := dsl.Let(b, tile.Mul(dsl.N(DeviceScanTile))).Exp

	// Rows in: row j of the tile is the DeviceScanThreads elements from
	// first + j*DeviceScanThreads; past the input's end, identity.
	b.ForAll(dsl.N(DeviceScanThreads), func(t *dsl.Thread, tid dsl.U32) {
		at := dsl.Let(t, padded(tid))
		for j := range devScanPerThread {
			ix := dsl.Let(t, first.Add(dsl.N(uint32(j*DeviceScanThreads))).Add(tid))
			x := dsl.Select(ix.Lt(s.in.Len()), s.in.At(ix.Exp), s.identity)
			elems.Store(t, at.Add(dsl.N(uint32(j*devScanRowStride))), x)
		}
	})
	b.Sync()

	// Each thread scans its consecutive elements in registers, and its
	// warp the threads' totals; each element is left in shared memory
	// scanned from the start of its warp's elements.
	b.ForAll(dsl.N(DeviceScanThreads), func(t *dsl.Thread, tid dsl.U32) {
		at := dsl.Let(t, padded(tid.Mul(dsl.N(devScanPerThread))))
		xs := make([]dsl.Exp[T], devScanPerThread)
		for e := range xs {
			xs[e] = dsl.Let(t, elems.At(at.Add(dsl.N(uint32(e))))).Exp
		}
		total := xs[0]
		for _, x := range xs[1:] {
			total = dsl.Let(t, s.op(total, x)).Exp
		}
		upTo := WarpScan(t, s.op, total, dsl.N(ir.WarpSize))
		acc := dsl.Let(t, s.before(t, upTo))
		for e, x := range xs {
			if exclusive {
				elems.Store(t, at.Add(dsl.N(uint32(e))), acc.Exp)
				acc.Set(s.op(acc.Exp, x))
			} else {
				acc.Set(s.op(acc.Exp, x))
				elems.Store(t, at.Add(dsl.N(uint32(e))), acc.Exp)
			}
		}
		t.If(dsl.LaneOf(tid).Eq(dsl.N(ir.WarpSize-1)), func(t *dsl.Thread) {
			warpTotals.Store(t, dsl.WarpOf(tid), upTo)
		})
	})
	b.Sync()

	// One warp publishes the tile's aggregate, looks back for the prefix
	// of the tiles before, publishes the tile's inclusive prefix and
	// leaves in rowPrefix, for each warp, the prefix of the elements
	// before the warp's.
	b.ForAllWarps(dsl.N(1), func(w *dsl.Warp, _ dsl.U32) {
		w.ForAll(dsl.N(ir.WarpSize), func(t *dsl.Thread, lane dsl.U32) {
			mine := dsl.Select(lane.Lt(dsl.N(devScanWarps)), warpTotals.At(lane.Min(dsl.N(devScanWarps-1))), s.identity)
			upTo := WarpScan(t, s.op, mine, dsl.N(devScanWarps))
			warpsBefore := dsl.Let(t, s.before(t, upTo))
			aggregate := dsl.Let(t, dsl.Shuffle(t, dsl.ShuffleIdx, upTo, dsl.N(devScanWarps-1)))
			t.If(lane.Eq(dsl.N(0)), func(t *dsl.Thread) {
				flag := dsl.Select(tile.Eq(dsl.N(0)), dsl.N(statusInclusive), dsl.N(statusAggregate))
				s.state.AtomicStore(t, tile.Add(dsl.N(1)), pack(flag, aggregate.Exp), dsl.Relaxed)
			})
			prefix := s.lookBack(t, lane, tile)
			t.If(lane.Eq(dsl.N(0)).And(tile.Gt(dsl.N(0))), func(t *dsl.Thread) {
				s.state.AtomicStore(t, tile.Add(dsl.N(1)), pack(dsl.N(statusInclusive), s.op(prefix, aggregate.Exp)),
					dsl.Relaxed)
			})
			t.If(lane.Lt(dsl.N(devScanWarps)), func(t *dsl.Thread) {
				rowPrefix.Store(t, lane, s.op(prefix, warpsBefore.Exp))
			})
		})
	})
	b.Sync()

	// Rows out: the rows of warp w's elements are raised by rowPrefix[w].
	b.ForAll(dsl.N(DeviceScanThreads), func(t *dsl.Thread, tid dsl.U32) {
		at := dsl.Let(t, padded(tid))
		for j := range devScanPerThread {
			prefix := rowPrefix.At(dsl.N(uint32(j / devScanRowWarps)))
			ix := dsl.Let(t, first.Add(dsl.N(uint32(j*DeviceScanThreads))).Add(tid))
			t.If(ix.Lt(s.out.Len()), func(t *dsl.Thread) {
				s.out.Store(t, ix.Exp, s.op(prefix, elems.At(at.Add(dsl.N(uint32(j*devScanRowStride))))))
			})
		}
	})
}

// before returns, in each lane, the exclusive scan of the warp from upTo,
// its inclusive scan: identity in lane 0, lane l-1's upTo in lane l.
func (s devScan[T]) before(t *dsl.Thread, upTo dsl.Exp[T]) dsl.Exp[T] {
	below := dsl.Shuffle(t, dsl.ShuffleUp, upTo, dsl.N(1))
	return dsl.Select(dsl.LaneIdx.Eq(dsl.N(0)), s.identity, below)
}

// lookBack returns, in every lane of the warp, the total of the tiles
// before tile (identity for the first), from their status words: lane l
// reads the word of tile base-32+l, for a window base that starts at tile
// and moves back 32 tiles at a time until a window holds an inclusive
// prefix. Lanes before tile 0 take an inclusive identity.
func (s devScan[T]) lookBack(t *dsl.Thread, lane, tile dsl.U32) dsl.Exp[T] {
	prefix := dsl.Let(t, s.identity)
	base := dsl.Let(t, tile)
	done := dsl.Let(t, tile.Eq(dsl.N(0)))
	t.While(done.Not(), func(t *dsl.Thread) {
		// Lane l holds tile base-32+l, which exists when l >= 32-base.
		exists := dsl.Let(t, lane.Add(base.Exp).Ge(dsl.N(ir.WarpSize)))
		word := dsl.Let(t, pack(dsl.N(statusInclusive), s.identity))
		read := func(t *dsl.Thread) {
			t.If(exists.Exp, func(t *dsl.Thread) {
				word.Set(s.state.AtomicLoad(t, base.Add(lane).Sub(dsl.N(ir.WarpSize-1)), dsl.Relaxed))
			})
		}
		read(t)
		pending := dsl.Let(t, dsl.Any(t, flagOf(word.Exp).Eq(dsl.N(statusEmpty))))
		t.While(pending.Exp, func(t *dsl.Thread) {
			read(t)
			pending.Set(dsl.Any(t, flagOf(word.Exp).Eq(dsl.N(statusEmpty))))
		})
		inclusive := dsl.Let(t, dsl.Ballot(t, flagOf(word.Exp).Eq(dsl.N(statusInclusive))))
		// The nearest inclusive lane k (the highest), or 0 when none: the
		// window's total from lane k on.
		k := dsl.Let(t, dsl.Select(inclusive.Ne(dsl.N(0)),
			dsl.N(ir.WarpSize-1).Sub(inclusive.LeadingZeros()), dsl.N(0)))
		from := dsl.Shuffle(t, dsl.ShuffleDown, valueOf[T](word.Exp), k.Exp)
		window := WarpReduce(t, s.op, from, dsl.N(ir.WarpSize).Sub(k.Exp))
		prefix.Set(s.op(window, prefix.Exp))
		done.Set(inclusive.Ne(dsl.N(0)))
		base.Set(base.Sub(dsl.N(ir.WarpSize)))
	})
	return prefix.Exp
}

// pack returns the status word of flag and value x.
func pack[T dsl.Number](flag dsl.U32, x dsl.Exp[T]) dsl.Exp[uint64] {
	return dsl.Cast[uint64](flag).Shl(dsl.Lit[uint64](32)).Or(dsl.Cast[uint64](bitsOf(x)))
}

// flagOf returns the flag of a status word.
func flagOf(word dsl.Exp[uint64]) dsl.U32 { return dsl.Cast[uint32](word.Shr(dsl.Lit[uint64](32))) }

// valueOf returns the value of a status word.
func valueOf[T dsl.Number](word dsl.Exp[uint64]) dsl.Exp[T] {
	return fromBits[T](dsl.Cast[uint32](word))
}

// bitsOf returns the 32 bits of x, a 32-bit value.
func bitsOf[T dsl.Number](x dsl.Exp[T]) dsl.U32 {
	if f, ok := any(x).(dsl.Exp[float32]); ok {
		return dsl.Float32Bits(f)
	}
	return dsl.Cast[uint32](x)
}

// fromBits returns the T whose 32 bits are b.
func fromBits[T dsl.Number](b dsl.U32) dsl.Exp[T] {
	if x, ok := any(dsl.Float32FromBits(b)).(dsl.Exp[T]); ok {
		return x
	}
	return dsl.Cast[T](b)
}

// padded returns the shared-memory index of tile element i: a word of
// padding after every warp's worth of elements, so that a warp reading a
// row and a warp whose threads each read their own consecutive elements
// both touch distinct banks.
func padded(i dsl.U32) dsl.U32 { return i.Add(i.Shr(dsl.N(ir.LaneBits))) }
