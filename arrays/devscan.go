package arrays

import (
	"errors"
	"fmt"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// The device-wide scan: a single pass with decoupled look-back (Merrill and
// Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
// 2016; CUB's DeviceScan). The input is cut into tiles of DeviceScanTile
// elements, one per virtual block. A block takes its tile from an atomic
// counter, so that the tiles are taken in the order the blocks start and a
// block waits only for blocks that have started; or, with TilesByBlock in
// a launch of a block per tile, block i takes tile i (BlockTile), the
// blocks being started in index order. It reads its tile once
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
// A status word is 64 bits: the flag in the high half, the value's 32
// bits in the low half, written and read with one atomic access, so the
// value arrives with its flag (which is why DeviceScan takes 32-bit
// element types only). The flag carries the launch's epoch (see
// status.go): a word written in another epoch counts as not yet
// published, so that successive launches on one state, each with its own
// epoch, need no zeroing of the state between them. The tile counter goes
// on counting from launch to launch; a launch is given the counter's value
// at its start and numbers its tiles from there.

const (
	// DeviceScanThreads is the number of threads per block of the scan in
	// its default shape.
	DeviceScanThreads = 256
	// DeviceScanTile is the number of elements of a tile of the scan in
	// its default shape.
	DeviceScanTile = DeviceScanThreads * 32
)

// DeviceScanShape is the shape of a device scan's blocks. Every shape
// computes the same scan; they differ in speed only.
type DeviceScanShape struct {
	// Threads is the number of threads per block: a multiple of 32 from
	// 32 to 1024.
	Threads int
	// PerThread is the number of consecutive elements each thread scans in
	// registers, from 1 to 32. The tile is Threads × PerThread elements.
	PerThread int
	// FullTiles, when set, has a block whose tile lies wholly inside the
	// input read and write it without checking each element's index
	// against the length; only the last tile is checked element by
	// element.
	FullTiles bool
	// WarpRows, when set, has each warp read and write the 32×PerThread
	// consecutive elements it scans itself, by rows of 32, meeting its
	// lanes at a warp barrier: the block meets at two barriers fewer per
	// tile. Without it the block reads and writes its tile by rows of
	// Threads elements.
	WarpRows bool
	// Vector, when set, has each thread of a block whose tile lies wholly
	// inside the input read and write its rows as groups of VectorWidth
	// consecutive elements from an index that is a multiple of
	// VectorWidth (row j of the tile is the Threads×VectorWidth elements
	// from VectorWidth×j×Threads, thread tid's group of it VectorWidth×tid
	// on), so that the compiler may make each group one 16-byte access;
	// in and out are then declared aligned to 16 bytes (dsl
	// Array.Aligned), and a launch with views that are not fails. The
	// last tile is read and written element by element, its indices
	// checked. With FullTiles too, each group's stores are under one
	// check of the group's last index, so that they can merge; without,
	// each store checks its own index and only the loads merge. PerThread
	// must be a multiple of VectorWidth, and WarpRows off.
	Vector bool
	// Backoff is the nanoseconds the look-back sleeps before it reads
	// again a window of status words of which one was not yet published;
	// 0 polls at once. At most ir.MaxSleepNanos.
	Backoff uint32
	// TilesByBlock, when set, has a launch with a block per tile (or more)
	// scan tile i in block i, as CUB's scan does, where without it every
	// block takes its tile from the tile counter first: an atomic's round
	// trip and a barrier before the tile's loads. The counter is still
	// raised once per tile, so that the state's contract is the same.
	// Block i's look-back then waits only for blocks of lower index, which
	// the GPU starts before it (blocks are dispatched in index order); a
	// launch with fewer blocks than tiles takes its tiles from the counter
	// as without the option, since its blocks run several tiles each.
	TilesByBlock bool
}

// DefaultDeviceScanShape is the shape DeviceScanKernel uses: 256 threads
// of 32 elements, full tiles unchecked, tile i in block i (TilesByBlock).
var DefaultDeviceScanShape = DeviceScanShape{Threads: DeviceScanThreads, PerThread: DeviceScanTile / DeviceScanThreads,
	FullTiles: true, TilesByBlock: true}

// deviceScanShapes are the shapes DeviceScanShapeFor picks from: each from
// the length it is for on. Of the shapes timed on an H200 (uint32 sums of
// 2^16 to 2^27 elements, see docs/performance.md), 256×32 was the fastest
// up to 2^22 elements (2-20 % ahead of 128×32), 512×32 as fast from 2^23
// and 1-2 % ahead of 256×32 at 2^25 in the benchmark's runs; tiles by
// block were about 2 % ahead of tiles from the counter.
var deviceScanShapes = []struct {
	from  uint32
	shape DeviceScanShape
}{
	{0, DefaultDeviceScanShape},
	{1 << 24, DeviceScanShape{Threads: 512, PerThread: 32, FullTiles: true, TilesByBlock: true}},
}

// DeviceScanShapeFor returns the shape of the fastest device scan of n
// elements, without Vector rows (which, for in and out aligned to 16
// bytes, are faster still: package scan sets them).
func DeviceScanShapeFor(n uint32) DeviceScanShape {
	shape := deviceScanShapes[0].shape
	for _, s := range deviceScanShapes[1:] {
		if n >= s.from {
			shape = s.shape
		}
	}
	return shape
}

// Tile returns the number of elements of a tile: Threads × PerThread.
func (sh DeviceScanShape) Tile() int { return sh.Threads * sh.PerThread }

// StateLen returns the number of uint64 words of the state a scan of n
// elements in this shape takes: the tile counter, then one status word per
// tile. The state must be zero before its first scan (see
// DeviceScanKernelShaped for the scans after). The shape must be valid
// (see Check).
func (sh DeviceScanShape) StateLen(n uint32) uint64 {
	tile := uint64(sh.Tile())
	return 1 + (uint64(n)+tile-1)/tile
}

// Check returns why the shape cannot be built, or nil.
func (sh DeviceScanShape) Check() error {
	switch {
	case sh.Threads < ir.WarpSize || sh.Threads > 1024 || sh.Threads%ir.WarpSize != 0:
		return fmt.Errorf("device scan shape: %d threads per block, want a multiple of %d from %d to 1024",
			sh.Threads, ir.WarpSize, ir.WarpSize)
	case sh.PerThread < 1 || sh.PerThread > maxDevScanPerThread:
		return fmt.Errorf("device scan shape: %d elements per thread, want 1 to %d", sh.PerThread, maxDevScanPerThread)
	case sh.Vector && sh.PerThread%VectorWidth != 0:
		return fmt.Errorf("device scan shape: vector rows of %d elements per thread, want a multiple of %d", sh.PerThread,
			VectorWidth)
	case sh.Vector && sh.WarpRows:
		return errors.New("device scan shape: vector rows and warp rows together; want one of them")
	case sh.Backoff > ir.MaxSleepNanos:
		return fmt.Errorf("device scan shape: a backoff of %d ns, want at most %d", sh.Backoff, ir.MaxSleepNanos)
	}
	return nil
}

// String names the shape, e.g. "256x16", "256x16/full",
// "256x16/full/vector" or "256x16/full/warprows/backoff100".
func (sh DeviceScanShape) String() string {
	name := fmt.Sprintf("%dx%d", sh.Threads, sh.PerThread)
	if sh.FullTiles {
		name += "/full"
	}
	if sh.WarpRows {
		name += "/warprows"
	}
	if sh.Vector {
		name += "/vector"
	}
	if sh.Backoff > 0 {
		name += fmt.Sprintf("/backoff%d", sh.Backoff)
	}
	if sh.TilesByBlock {
		name += "/byblock"
	}
	return name
}

// VectorWidth is the number of 32-bit elements a thread reads or writes
// at once in a device scan with Vector rows: 16 bytes.
const VectorWidth = ir.MaxAlign / 4

// maxDevScanPerThread is the most elements per thread: up to it, the
// padding of padEvery keeps shared memory free of bank conflicts.
const maxDevScanPerThread = ir.WarpSize

// padEvery returns the number of elements of a tile in shared memory after
// which a word of padding goes, or 0 for none. A warp reads and writes its
// rows (32 consecutive elements) and, in the scan, each thread's
// PerThread consecutive elements, lane l's at l×PerThread + e; both touch
// 32 distinct banks when PerThread is odd and unpadded, or when it is
// 2^k×m, m odd, with a word of padding after every 32×m elements. A
// thread's elements never straddle a padding word, since 32×m is a
// multiple of PerThread (k is at most 5).
func (sh DeviceScanShape) padEvery() int {
	if sh.PerThread%2 == 1 {
		return 0
	}
	m := sh.PerThread
	for m%2 == 0 {
		m /= 2
	}
	return ir.WarpSize * m
}

// sharedLen returns the words of shared memory a tile takes, padding
// included.
func (sh DeviceScanShape) sharedLen() int {
	if every := sh.padEvery(); every > 0 {
		return sh.Tile() + sh.Tile()/every
	}
	return sh.Tile()
}

// DeviceScanStateLen returns the number of uint64 words of the state a scan
// of n elements in the default shape takes: the tile counter, then one
// status word per tile. The state must be zero before its first scan.
func DeviceScanStateLen(n uint32) uint64 { return DefaultDeviceScanShape.StateLen(n) }

// DeviceScanKernel returns the kernel of the device-wide scan of its input
// in under op, into out, in the default shape (DeviceScanKernelShaped).
func DeviceScanKernel[T dsl.Number](name string, op Op[T], identity dsl.Exp[T], exclusive bool) *dsl.Kernel {
	return DeviceScanKernelShaped(name, op, identity, exclusive, DefaultDeviceScanShape)
}

// DeviceScanKernelShaped returns the kernel of the device-wide scan of its
// input in under op, into out, with blocks of the given shape: the
// inclusive scan (in_0 op ... op in_i at i), or with exclusive the
// exclusive one (identity op in_0 op ... op in_(i-1)). identity must be
// op's identity; op need not be commutative. The elements must be 32 bits
// (int32, uint32, float32), and the shape valid (Check): anything else is
// an error of the kernel. For floats, the grouping of the operations
// depends on the order the blocks run in.
//
// Its parameters are in (Input), out (Output, as long as in), state
// (InOut, at least shape.StateLen(len(in)) words), epoch (uint32) and base
// (uint64). state[0] is the tile counter: a block takes its tile with
// atomicAdd(state[0], 1) - base (with TilesByBlock in a launch of a block
// per tile, its own index, the counter raised all the same), so base must
// be the counter's value when the launch starts, and the launch leaves it
// raised by the number of tiles, shape.StateLen(len(in)) - 1. state[1+i]
// is tile i's status word,
// published with the flags of epoch (at most MaxEpoch); a word written in
// another epoch counts as not yet published. So the state must be zero
// before its first launch (then base is 0), and each later launch on it
// needs only an epoch that no word of its tiles holds, e.g. one more than
// the launch before, and base raised by that launch's tiles: no zeroing
// between launches. The host launches it with at most
// shape.StateLen(len(in)) - 1 blocks, the number of tiles; with fewer, the
// blocks take their tiles from the counter, so any number of blocks
// finishes. out may be in.
func DeviceScanKernelShaped[T dsl.Number](name string, op Op[T], identity dsl.Exp[T], exclusive bool,
	shape DeviceScanShape) *dsl.Kernel {
	op = op.orInvalid("DeviceScanKernel")
	shapeErr := shape.Check()
	threads := shape.Threads
	if shapeErr != nil {
		threads = DeviceScanThreads
	}
	k := dsl.NewKernel(name, threads)
	in := dsl.Input[T](k, "in")
	out := dsl.Output[T](k, "out")
	if shape.Vector && shapeErr == nil && dsl.TypeOf[T]().Size() == 4 {
		in, out = in.Aligned(ir.MaxAlign), out.Aligned(ir.MaxAlign)
	}
	state := dsl.InOut[uint64](k, "state")
	epoch := dsl.Param[uint32](k, "epoch")
	base := dsl.Param[uint64](k, "base")
	k.Body(func(g *dsl.Grid) {
		if dsl.TypeOf[T]().Size() != 4 {
			dsl.Let(g, dsl.Invalid[T]("DeviceScanKernel of "+dsl.TypeOf[T]().String()+
				" elements: its status words hold 32-bit values (int32, uint32, float32)"))
			return
		}
		if shapeErr != nil {
			dsl.Let(g, dsl.Invalid[T]("DeviceScanKernelShaped: "+shapeErr.Error()))
			return
		}
		n := in.Len()
		tiles := dsl.CeilDiv(n, dsl.N(uint32(shape.Tile())))
		g.ForAllBlocks(tiles, func(b *dsl.Block, bid dsl.U32) {
			s := devScan[T]{op: op, identity: identity, in: in, out: out, state: state, base: base, shape: shape}
			s.aggregateFlag, s.inclusiveFlag = statusFlags(b, epoch)
			s.tile(b, s.takeTile(b, bid, tiles), exclusive)
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
	// base is the tile counter's value when the launch started.
	base dsl.Exp[uint64]
	// aggregateFlag and inclusiveFlag are the flags of the launch's epoch.
	aggregateFlag, inclusiveFlag dsl.U32
	shape                        DeviceScanShape
}

// takeTile returns the tile block b scans in its turn bid of the grid's
// tiles: the next from the tile counter, or with TilesByBlock, BlockTile's.
func (s devScan[T]) takeTile(b *dsl.Block, bid, tiles dsl.U32) dsl.U32 {
	if s.shape.TilesByBlock {
		return blockTile(b, bid, tiles, s.state, dsl.N(0), &s.base)
	}
	return dsl.Let(b, takeTicket(b, s.state, dsl.N(0), &s.base)).Exp
}

// tile records the scan of tile by block b.
func (s devScan[T]) tile(b *dsl.Block, tile dsl.U32, exclusive bool) {
	threads, perThread := s.shape.Threads, s.shape.PerThread
	tileLen := uint32(s.shape.Tile())
	warps := threads / ir.WarpSize
	elems := dsl.Shared[T](b, s.shape.sharedLen())
	warpTotals := dsl.Shared[T](b, warps)
	warpPrefix := dsl.Shared[T](b, warps)
	first := dsl.Let(b, tile.Mul(dsl.N(tileLen))).Exp
	// full: the tile lies wholly inside the input (first + tileLen <= n,
	// written so as not to wrap past 2^32).
	full := func(b *dsl.Block) dsl.Bool {
		n := s.in.Len()
		return dsl.Let(b, first.Lt(n).And(n.Sub(first).Ge(dsl.N(tileLen)))).Exp
	}
	// split runs fast for a full tile and checked for the last one, or
	// checked for every tile when the shape asks for neither FullTiles
	// nor Vector.
	split := func(b *dsl.Block, fast, checked func(*dsl.Block)) {
		if s.shape.FullTiles || s.shape.Vector {
			b.IfElse(full(b), fast, checked)
		} else {
			checked(b)
		}
	}
	byTile := func(b *dsl.Block, rows func(bounded bool) func(*dsl.Block)) { split(b, rows(false), rows(true)) }

	if s.shape.WarpRows {
		// Warp w reads the 32×PerThread elements it scans by rows of 32:
		// row j of warp w is the 32 elements from
		// first + w×32×PerThread + 32j; past the input's end, identity.
		byTile(b, func(bounded bool) func(*dsl.Block) {
			return func(b *dsl.Block) {
				b.ForAllWarps(dsl.N(uint32(warps)), func(w *dsl.Warp, wid dsl.U32) {
					w.ForAll(dsl.N(ir.WarpSize), func(t *dsl.Thread, lane dsl.U32) {
						for j := range perThread {
							e := dsl.Let(t, s.warpRow(wid, lane, j)).Exp
							ix := dsl.Let(t, first.Add(e))
							x := s.in.At(ix.Exp)
							if bounded {
								x = dsl.Select(ix.Lt(s.in.Len()), x, s.identity)
							}
							elems.Store(t, s.at(e), x)
						}
					})
					w.Sync()
					w.ForAll(dsl.N(ir.WarpSize), func(t *dsl.Thread, lane dsl.U32) {
						s.scanThread(t, elems, warpTotals, wid.Mul(dsl.N(ir.WarpSize)).Add(lane), exclusive)
					})
				})
			}
		})
	} else {
		// Rows in: row j of the tile is the Threads elements from
		// first + j*Threads; past the input's end, identity. With Vector,
		// a full tile's rows are of Threads groups (see vectorIn).
		rowsIn := byTile
		if s.shape.Vector {
			rowsIn = func(b *dsl.Block, rows func(bounded bool) func(*dsl.Block)) {
				split(b, func(b *dsl.Block) { s.vectorIn(b, elems, first) }, rows(true))
			}
		}
		rowsIn(b, func(bounded bool) func(*dsl.Block) {
			return func(b *dsl.Block) {
				b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
					at := dsl.Let(t, s.at(tid)).Exp
					for j := range perThread {
						ix := dsl.Let(t, first.Add(dsl.N(uint32(j*threads))).Add(tid))
						x := s.in.At(ix.Exp)
						if bounded {
							x = dsl.Select(ix.Lt(s.in.Len()), x, s.identity)
						}
						elems.Store(t, s.rowAt(at, tid, j), x)
					}
				})
			}
		})
		b.Sync()
		b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
			s.scanThread(t, elems, warpTotals, tid, exclusive)
		})
	}
	b.Sync()

	// One warp publishes the tile's aggregate, looks back for the prefix
	// of the tiles before, publishes the tile's inclusive prefix and
	// leaves in warpPrefix, for each warp, the prefix of the elements
	// before the warp's.
	b.ForAllWarps(dsl.N(1), func(w *dsl.Warp, _ dsl.U32) {
		w.ForAll(dsl.N(ir.WarpSize), func(t *dsl.Thread, lane dsl.U32) {
			// warps <= 32: Threads is at most 1024.
			mine := dsl.Select(lane.Lt(dsl.N(uint32(warps))), warpTotals.At(lane.Min(dsl.N(uint32(warps-1)))), s.identity)
			upTo := WarpScan(t, s.op, mine, dsl.N(uint32(warps)))
			warpsBefore := dsl.Let(t, s.before(t, upTo))
			aggregate := dsl.Let(t, dsl.Shuffle(t, dsl.ShuffleIdx, upTo, dsl.N(uint32(warps-1))))
			t.If(lane.Eq(dsl.N(0)), func(t *dsl.Thread) {
				flag := dsl.Select(tile.Eq(dsl.N(0)), s.inclusiveFlag, s.aggregateFlag)
				s.state.AtomicStore(t, tile.Add(dsl.N(1)), pack(flag, aggregate.Exp), dsl.Relaxed)
			})
			prefix := s.lookBack(t, lane, tile)
			t.If(lane.Eq(dsl.N(0)).And(tile.Gt(dsl.N(0))), func(t *dsl.Thread) {
				s.state.AtomicStore(t, tile.Add(dsl.N(1)), pack(s.inclusiveFlag, s.op(prefix, aggregate.Exp)),
					dsl.Relaxed)
			})
			t.If(lane.Lt(dsl.N(uint32(warps))), func(t *dsl.Thread) {
				warpPrefix.Store(t, lane, s.op(prefix, warpsBefore.Exp))
			})
		})
	})
	b.Sync()

	// Rows out: the elements of warp w are raised by warpPrefix[w].
	if s.shape.WarpRows {
		byTile(b, func(bounded bool) func(*dsl.Block) {
			return func(b *dsl.Block) {
				b.ForAllWarps(dsl.N(uint32(warps)), func(w *dsl.Warp, wid dsl.U32) {
					w.ForAll(dsl.N(ir.WarpSize), func(t *dsl.Thread, lane dsl.U32) {
						prefix := dsl.Let(t, warpPrefix.At(wid)).Exp
						for j := range perThread {
							e := dsl.Let(t, s.warpRow(wid, lane, j)).Exp
							ix := dsl.Let(t, first.Add(e))
							store := func(t *dsl.Thread) {
								s.out.Store(t, ix.Exp, s.op(prefix, elems.At(s.at(e))))
							}
							if bounded {
								t.If(ix.Lt(s.out.Len()), store)
							} else {
								store(t)
							}
						}
					})
				})
			}
		})
		return
	}
	rowsOut := byTile
	if s.shape.Vector {
		rowsOut = func(b *dsl.Block, rows func(bounded bool) func(*dsl.Block)) {
			split(b, func(b *dsl.Block) { s.vectorOut(b, elems, warpPrefix, first) }, rows(true))
		}
	}
	rowsOut(b, func(bounded bool) func(*dsl.Block) {
		return func(b *dsl.Block) {
			b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
				at := dsl.Let(t, s.at(tid)).Exp
				for j := range perThread {
					prefix := warpPrefix.At(s.warpOf(tid, j))
					ix := dsl.Let(t, first.Add(dsl.N(uint32(j*threads))).Add(tid))
					store := func(t *dsl.Thread) {
						s.out.Store(t, ix.Exp, s.op(prefix, elems.At(s.rowAt(at, tid, j))))
					}
					if bounded {
						t.If(ix.Lt(s.out.Len()), store)
					} else {
						store(t)
					}
				}
			})
		}
	})
}

// vectorIn has block b read its tile, full, from first into elems by
// groups of VectorWidth: thread tid's group of row j is the VectorWidth
// elements from e = VectorWidth×(j×Threads + tid), an index that is a
// multiple of VectorWidth, as is first (Tile is), so that with in aligned
// to 16 bytes the compiler may read the group with one 16-byte load.
//
// In shared memory the group is VectorWidth consecutive words from at(e):
// padEvery is a multiple of PerThread, so of VectorWidth, and no padding
// word falls inside a group. The warp's stores of one element of its
// groups (lane l at 4l + c, plus a padding word after every 32×m
// elements, PerThread = 2^k×m) touch 32 distinct banks when m is 1
// (4l + l/8 mod 32 takes every value); for m > 1, lanes 8i..8i+7 of a run
// of 32m/4 lanes share their 8 banks with the lanes of the runs beside
// it: up to m-way conflicts (3-way for PerThread 12), as many as the
// groups' loads save.
func (s devScan[T]) vectorIn(b *dsl.Block, elems dsl.Array[T], first dsl.U32) {
	b.ForAll(dsl.N(uint32(s.shape.Threads)), func(t *dsl.Thread, tid dsl.U32) {
		for j := range s.shape.PerThread / VectorWidth {
			e := dsl.Let(t, s.group(tid, j)).Exp
			ix := dsl.Let(t, first.Add(e)).Exp
			at := dsl.Let(t, s.at(e)).Exp
			for c := range uint32(VectorWidth) {
				elems.Store(t, plus(at, c), s.in.At(plus(ix, c)))
			}
		}
	})
}

// vectorOut has block b write its tile, full, from elems to out from
// first, each element raised by its warp's prefix in warpPrefix, by the
// groups of vectorIn. A group lies within one warp's elements (a warp's
// 32×PerThread is a multiple of VectorWidth). With FullTiles each group's
// stores are under one check that the group lies before out's end (which
// a full tile's does), so that the printed stores need no check each and
// may merge into one 16-byte store.
func (s devScan[T]) vectorOut(b *dsl.Block, elems, warpPrefix dsl.Array[T], first dsl.U32) {
	perWarp := ir.WarpSize * s.shape.PerThread
	b.ForAll(dsl.N(uint32(s.shape.Threads)), func(t *dsl.Thread, tid dsl.U32) {
		for j := range s.shape.PerThread / VectorWidth {
			e := dsl.Let(t, s.group(tid, j)).Exp
			ix := dsl.Let(t, first.Add(e)).Exp
			at := dsl.Let(t, s.at(e)).Exp
			prefix := dsl.Let(t, warpPrefix.At(e.Div(dsl.N(uint32(perWarp))))).Exp
			store := func(t *dsl.Thread) {
				for c := range uint32(VectorWidth) {
					s.out.Store(t, plus(ix, c), s.op(prefix, elems.At(plus(at, c))))
				}
			}
			if !s.shape.FullTiles {
				store(t)
				continue
			}
			n := s.out.Len()
			t.If(ix.Lt(n).And(n.Sub(ix).Gt(dsl.N(uint32(VectorWidth-1)))), store)
		}
	})
}

// group returns the tile index of the first element of thread tid's group
// of row j, with Vector rows: VectorWidth×(j×Threads + tid).
func (s devScan[T]) group(tid dsl.U32, j int) dsl.U32 {
	return dsl.N(uint32(VectorWidth * j * s.shape.Threads)).Add(tid.Mul(dsl.N(VectorWidth)))
}

// plus returns x + c, or x for c = 0.
func plus(x dsl.U32, c uint32) dsl.U32 {
	if c == 0 {
		return x
	}
	return x.Add(dsl.N(c))
}

// scanThread has thread tid scan its PerThread consecutive elements of
// elems in registers and its warp the threads' totals, leaving each
// element scanned from the start of its warp's elements, and the warp's
// last lane the warp's total in warpTotals.
func (s devScan[T]) scanThread(t *dsl.Thread, elems, warpTotals dsl.Array[T], tid dsl.U32, exclusive bool) {
	perThread := s.shape.PerThread
	at := dsl.Let(t, s.at(tid.Mul(dsl.N(uint32(perThread)))))
	xs := make([]dsl.Exp[T], perThread)
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
}

// warpRow returns the tile index of lane's element of row j of warp wid,
// when warps read their own elements (WarpRows): warp w's are the
// 32×PerThread from w×32×PerThread, row j the 32 from there + 32j.
func (s devScan[T]) warpRow(wid, lane dsl.U32, j int) dsl.U32 {
	perWarp := uint32(ir.WarpSize * s.shape.PerThread)
	return wid.Mul(dsl.N(perWarp)).Add(dsl.N(uint32(j * ir.WarpSize))).Add(lane)
}

// at returns the shared-memory index of tile element i (see padEvery).
func (s devScan[T]) at(i dsl.U32) dsl.U32 {
	every := s.shape.padEvery()
	if every == 0 {
		return i
	}
	pad := i.Shr(dsl.N(ir.LaneBits))
	if m := every / ir.WarpSize; m > 1 {
		pad = pad.Div(dsl.N(uint32(m)))
	}
	return i.Add(pad)
}

// rowAt returns the shared-memory index of element tid of row j of the
// tile: from at, that of tid in row 0, when rows hold whole runs between
// padding words, and otherwise from the element's own index.
func (s devScan[T]) rowAt(at, tid dsl.U32, j int) dsl.U32 {
	threads, every := s.shape.Threads, s.shape.padEvery()
	if every == 0 || threads%every == 0 {
		stride := threads
		if every > 0 {
			stride += threads / every
		}
		return at.Add(dsl.N(uint32(j * stride)))
	}
	return s.at(dsl.N(uint32(j * threads)).Add(tid))
}

// warpOf returns the warp that scanned element tid of row j of the tile:
// warp w scans the 32×PerThread elements from w×32×PerThread.
func (s devScan[T]) warpOf(tid dsl.U32, j int) dsl.U32 {
	threads, perWarp := s.shape.Threads, ir.WarpSize*s.shape.PerThread
	if perWarp%threads == 0 { // a warp's elements fill whole rows
		return dsl.N(uint32(j / (perWarp / threads)))
	}
	return dsl.N(uint32(j * threads)).Add(tid).Div(dsl.N(uint32(perWarp)))
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
// prefix, waiting while a word of the window is not published in the
// launch's epoch. Lanes before tile 0 take an inclusive identity.
func (s devScan[T]) lookBack(t *dsl.Thread, lane, tile dsl.U32) dsl.Exp[T] {
	prefix := dsl.Let(t, s.identity)
	base := dsl.Let(t, tile)
	done := dsl.Let(t, tile.Eq(dsl.N(0)))
	t.While(done.Not(), func(t *dsl.Thread) {
		// Lane l holds tile base-32+l, which exists when l >= 32-base.
		exists := dsl.Let(t, lane.Add(base.Exp).Ge(dsl.N(ir.WarpSize)))
		word := dsl.Let(t, pack(s.inclusiveFlag, s.identity))
		read := func(t *dsl.Thread) {
			t.If(exists.Exp, func(t *dsl.Thread) {
				word.Set(s.state.AtomicLoad(t, base.Add(lane).Sub(dsl.N(ir.WarpSize-1)), dsl.Relaxed))
			})
		}
		read(t)
		pending := dsl.Let(t, dsl.Any(t, s.unpublished(t, word.Exp)))
		t.While(pending.Exp, func(t *dsl.Thread) {
			if s.shape.Backoff > 0 {
				dsl.Sleep(t, s.shape.Backoff)
			}
			read(t)
			pending.Set(dsl.Any(t, s.unpublished(t, word.Exp)))
		})
		inclusive := dsl.Let(t, dsl.Ballot(t, flagOf(word.Exp).Eq(s.inclusiveFlag)))
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

// unpublished reports whether a status word holds neither flag of the
// launch's epoch: written by no launch yet, or by another.
func (s devScan[T]) unpublished(t *dsl.Thread, word dsl.Exp[uint64]) dsl.Bool {
	flag := dsl.Let(t, flagOf(word))
	return flag.Ne(s.aggregateFlag).And(flag.Ne(s.inclusiveFlag))
}
