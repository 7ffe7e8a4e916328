package arrays

import (
	"fmt"

	"github.com/obsidian-go/obsidian/dsl"
)

// Decoupled look-back over a vector of values per tile (Merrill and
// Garland's single-pass scan, as Onesweep uses it for a radix sort's
// digit counts): the blocks of a launch each hold one tile, taken in order
// from an atomic counter (NextTile), and each has a vector of Width values
// (a radix sort pass: its tile's count of every digit). LookBack gives
// every block, for each element of the vector, the combination of that
// element over all the tiles before its own, in one launch, waiting only
// for blocks that took an earlier tile.
//
// The state is Width status words (uint64) per tile: status[tile*Width+i].
// A word holds a flag in its high half and a 32-bit value in its low half,
// written and read with one atomic access, so the value arrives with its
// flag (as in DeviceScanKernel's status words). The flags carry an epoch:
// in epoch e a tile publishes its aggregate with the flag 2e+1 and its
// inclusive prefix with 2e+2, and a word whose flag is below 2e+1 is not
// yet published. The state is zeroed once; successive launches that use it
// with increasing epochs (the passes of a radix sort) need no zeroing
// between them.

// NextTile returns the tile the block takes: counter[at], incremented by
// one thread with an atomic add, shared with the block through shared
// memory (one barrier). A launch whose blocks take their tiles this way
// numbers them in the order the blocks start, so a block that waits for
// the tiles before its own waits only for blocks that have started: the
// look-back of LookBack cannot wait for ever. counter[at] must be zero
// when the launch starts; it ends holding the number of blocks.
func NextTile(b *dsl.Block, counter dsl.Array[uint32], at dsl.U32) dsl.U32 {
	return takeTicket(b, counter, at, nil)
}

// BlockTile returns the tile block b takes in its turn bid of a grid loop
// over tiles tiles (dsl.Grid.ForAllBlocks): bid itself when the grid has a
// block for every tile, as CUB's single-pass scan numbers its tiles, and
// NextTile's otherwise. The GPU starts a launch's blocks in the order of
// their index, so that with a block per tile a block that waits for the
// tiles before its own waits only for blocks that have started, as with
// NextTile; a grid with fewer blocks runs several tiles in each, which
// only the counter can order. It saves NextTile's wait for the counter's
// old value and its barrier before the tile's loads. counter[at] is raised
// by one per tile either way (with a block per tile, without a wait for
// its old value), so that it ends holding the number of tiles as with
// NextTile.
func BlockTile(b *dsl.Block, bid, tiles dsl.U32, counter dsl.Array[uint32], at dsl.U32) dsl.U32 {
	return blockTile(b, bid, tiles, counter, at, nil)
}

// blockTile is BlockTile for a counter of either width that started the
// launch at base (nil for 0): the tile from the counter is its old value
// less base.
func blockTile[C uint32 | uint64](b *dsl.Block, bid, tiles dsl.U32, counter dsl.Array[C], at dsl.U32,
	base *dsl.Exp[C]) dsl.U32 {
	tile := dsl.Let(b, bid)
	b.IfElse(dsl.GridDim.Ge(tiles), func(b *dsl.Block) {
		b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
			counter.Atomic(t, dsl.AtomicAdd, at, dsl.Lit[C](1))
		})
	}, func(b *dsl.Block) {
		tile.Set(takeTicket(b, counter, at, base))
	})
	return tile.Exp
}

// takeTicket has one thread of b raise counter[at] by one and shares its
// old value, less base (nil for 0), with the block (OneThread).
func takeTicket[C uint32 | uint64](b *dsl.Block, counter dsl.Array[C], at dsl.U32, base *dsl.Exp[C]) dsl.U32 {
	return OneThread(b, func(t *dsl.Thread) dsl.U32 {
		old := counter.Fetch(t, dsl.AtomicAdd, at, dsl.Lit[C](1))
		if base != nil {
			old = old.Sub(*base)
		}
		return dsl.Cast[uint32](old)
	})
}

// LookBack returns, at index i, the combination under op of element i of
// the aggregates of every tile before tile, identity op agg_0[i] op ... op
// agg_(tile-1)[i] (identity for tile 0), as a Pull array of the block's
// shared memory. aggregates is the block's own vector, of a constant
// length Width: its element i is read once. The block's (virtual) threads
// each take an element: a thread publishes its tile's aggregate (tile 0
// its inclusive prefix at once) in status[tile*Width+i], then reads the
// words of the tiles before, nearest first, waiting while a word is not
// published, combining their values until it meets an inclusive prefix,
// and publishes its tile's inclusive prefix; a barrier ends the step.
//
// T is a 32-bit type (int32, uint32, float32) and identity op's identity;
// op need not be commutative. epoch (up to MaxEpoch) is the launch's: the
// state must be zero before its first use, and each later launch on the
// same state must use a larger epoch (see the file's comment). status must
// hold Width words for every tile up to tile; tile must come from NextTile
// (or another order in which no block waits for one that has not started).
// A length that is not a constant, or T of 64 bits, is an error at the
// user's line. LookBack reads one word at a time: LookBackWindow with a
// window of 1.
func LookBack[T dsl.Number](b *dsl.Block, op Op[T], identity dsl.Exp[T], status dsl.Array[uint64],
	epoch, tile dsl.U32, aggregates Pull[T]) Pull[T] {
	return LookBackWindow(b, op, identity, status, epoch, tile, aggregates, 1)
}

// MaxLookBackWindow is the widest window of LookBackWindow.
const MaxLookBackWindow = 32

// LookBackWindow is LookBack reading the words of window tiles (a constant
// of the program, 1 to MaxLookBackWindow) at once: each thread loads the
// words of the window nearest tiles it has not read, then combines them
// nearest first, waiting on a word only while no nearer one was an
// inclusive prefix, so that a walk back over many tiles that published
// only their aggregates takes one load latency per window instead of one
// per tile. Words of tiles before tile 0 are not read.
func LookBackWindow[T dsl.Number](b *dsl.Block, op Op[T], identity dsl.Exp[T], status dsl.Array[uint64],
	epoch, tile dsl.U32, aggregates Pull[T], window int) Pull[T] {
	return lookBack(b, op, identity, nil, status, epoch, tile, aggregates, window)
}

// LookBackFrom is LookBackWindow with the tiles preceded by seed, a vector
// of the same length as aggregates: element i of the result is seed[i] op
// agg_0[i] op ... op agg_(tile-1)[i] (seed[i] for tile 0). Only tile 0's
// block reads seed, and it publishes seed[i] op agg_0[i] as its inclusive
// prefix, so the seed reaches every later tile through the look-back: a
// radix sort pass seeds it with each digit's global offset, which only
// the first tile computes.
func LookBackFrom[T dsl.Number](b *dsl.Block, op Op[T], identity dsl.Exp[T], seed Pull[T], status dsl.Array[uint64],
	epoch, tile dsl.U32, aggregates Pull[T], window int) Pull[T] {
	return lookBack(b, op, identity, &seed, status, epoch, tile, aggregates, window)
}

// lookBack is LookBackFrom, or LookBackWindow when seed is nil: the
// publication and the walk in one step.
func lookBack[T dsl.Number](b *dsl.Block, op Op[T], identity dsl.Exp[T], seed *Pull[T], status dsl.Array[uint64],
	epoch, tile dsl.U32, aggregates Pull[T], window int) Pull[T] {
	lb, bad := newLookBack(b, op, identity, seed, status, epoch, tile, aggregates)
	if bad == "" {
		bad = badWindow(window)
	}
	if bad != "" {
		return invalidLookBack[T](b, bad)
	}
	prefixes := dsl.Shared[T](b, int(max(lb.width, 1)))
	b.ForAll(lb.w, func(t *dsl.Thread, i dsl.U32) {
		agg := dsl.Let(t, aggregates.At(i)).Exp
		prefix := lb.publish(t, i, agg)
		lb.walk(t, i, agg, prefix, window)
		prefixes.Store(t, i, prefix.Exp)
	})
	b.Sync()
	return Take(lb.w, FromArray(prefixes))
}

// LookBackPublished is a tile's vector published for a look-back whose
// walk comes later, so that the block may do other work between the two
// while the tiles before its own publish their prefixes: LookBackPublish
// makes it, Prefixes walks.
type LookBackPublished[T dsl.Number] struct {
	lb lookBackState[T]
	// aggregates holds the tile's vector, prefixes the prefix each walk
	// starts from (the seed's element for tile 0, identity for the others)
	// and then its result.
	aggregates, prefixes dsl.Array[T]
	bad                  string
}

// LookBackPublish publishes the vector aggregates of tile, as LookBackFrom
// does before its walk (tile 0 its inclusive prefix seed op aggregates at
// once), and returns it for Prefixes; seed is read by tile 0 only. For no
// seed, give Replicate(length, identity). Its conditions are LookBack's.
func LookBackPublish[T dsl.Number](b *dsl.Block, op Op[T], identity dsl.Exp[T], seed Pull[T], status dsl.Array[uint64],
	epoch, tile dsl.U32, aggregates Pull[T]) LookBackPublished[T] {
	lb, bad := newLookBack(b, op, identity, &seed, status, epoch, tile, aggregates)
	if bad != "" {
		dsl.Let(b, dsl.Invalid[T](bad))
		return LookBackPublished[T]{bad: bad}
	}
	p := LookBackPublished[T]{lb: lb, aggregates: dsl.Shared[T](b, int(max(lb.width, 1))),
		prefixes: dsl.Shared[T](b, int(max(lb.width, 1)))}
	b.ForAll(lb.w, func(t *dsl.Thread, i dsl.U32) {
		agg := dsl.Let(t, aggregates.At(i)).Exp
		p.aggregates.Store(t, i, agg)
		p.prefixes.Store(t, i, lb.publish(t, i, agg).Exp)
	})
	return p
}

// Prefixes walks back over the tiles before p's, as LookBackWindow does
// after publishing (window tiles at once, 1 to MaxLookBackWindow), and
// returns, at index i, the combination of element i of the seed and of the
// aggregates of every tile before p's. Call it once, later in the block
// body that published p.
func (p LookBackPublished[T]) Prefixes(b *dsl.Block, window int) Pull[T] {
	bad := p.bad
	switch {
	case bad != "":
		bad = "Prefixes of a failed " + bad
	case p.prefixes.IR() == nil:
		bad = "Prefixes of a zero LookBackPublished (they come from LookBackPublish)"
	default:
		bad = badWindow(window)
	}
	if bad != "" {
		return invalidLookBack[T](b, bad)
	}
	b.ForAll(p.lb.w, func(t *dsl.Thread, i dsl.U32) {
		prefix := dsl.Let(t, p.prefixes.At(i))
		p.lb.walk(t, i, p.aggregates.At(i), prefix, window)
		p.prefixes.Store(t, i, prefix.Exp)
	})
	b.Sync()
	return Take(p.lb.w, FromArray(p.prefixes))
}

// lookBackState is what the publication and the walk of a look-back share.
type lookBackState[T dsl.Number] struct {
	op                           Op[T]
	identity                     dsl.Exp[T]
	seed                         *Pull[T]
	status                       dsl.Array[uint64]
	tile                         dsl.U32
	width                        uint32
	w                            dsl.U32 // width as a constant
	aggregateFlag, inclusiveFlag dsl.U32
}

// newLookBack checks a look-back's arguments and returns its state, or why
// it cannot be built.
func newLookBack[T dsl.Number](b *dsl.Block, op Op[T], identity dsl.Exp[T], seed *Pull[T], status dsl.Array[uint64],
	epoch, tile dsl.U32, aggregates Pull[T]) (lookBackState[T], string) {
	width, ok := constLen(aggregates.n)
	switch {
	case !ok:
		return lookBackState[T]{}, "LookBack of aggregates whose length is not a constant"
	case dsl.TypeOf[T]().Size() != 4:
		return lookBackState[T]{}, "LookBack of " + dsl.TypeOf[T]().String() +
			" values: its status words hold 32-bit values (int32, uint32, float32)"
	case seed != nil && !hasLen(seed.n, width):
		return lookBackState[T]{}, fmt.Sprintf("LookBackFrom of a seed whose length is not the aggregates' %d", width)
	}
	lb := lookBackState[T]{op: op.orInvalid("LookBack"), identity: identity, seed: seed, status: status, tile: tile,
		width: width, w: dsl.N(width)}
	lb.aggregateFlag, lb.inclusiveFlag = statusFlags(b, epoch)
	return lb, ""
}

// badWindow returns why window is not a look-back window, or "".
func badWindow(window int) string {
	if window < 1 || window > MaxLookBackWindow {
		return fmt.Sprintf("LookBackWindow of a window of %d tiles: want 1 to %d", window, MaxLookBackWindow)
	}
	return ""
}

// invalidLookBack records in b and returns a look-back that failed.
func invalidLookBack[T dsl.Number](b *dsl.Block, bad string) Pull[T] {
	invalid := dsl.Let(b, dsl.Invalid[T](bad)).Exp
	return Replicate(dsl.N(1), invalid)
}

// publish writes element i of the tile's vector, agg, to its status word
// (tile 0: its inclusive prefix, from the seed's element i if there is a
// seed) and returns the prefix its walk starts from.
func (lb lookBackState[T]) publish(t *dsl.Thread, i dsl.U32, agg dsl.Exp[T]) dsl.Var[T] {
	first := dsl.Let(t, lb.tile.Eq(dsl.N(0)))
	flag := dsl.Select(first.Exp, lb.inclusiveFlag, lb.aggregateFlag)
	prefix := dsl.Let(t, lb.identity)
	published := agg
	if lb.seed != nil { // tile 0 starts from the seed and publishes seed op agg
		t.If(first.Exp, func(t *dsl.Thread) { prefix.Set(lb.seed.At(i)) })
		published = dsl.Select(first.Exp, lb.op(prefix.Exp, agg), agg)
	}
	lb.status.AtomicStore(t, lb.tile.Mul(lb.w).Add(i), pack(flag, published), dsl.Relaxed)
	return prefix
}

// walk combines into prefix element i of the aggregates of the tiles
// before the tile, nearest first, until an inclusive prefix, and
// publishes the tile's own (prefix op agg); tile 0 does nothing.
func (lb lookBackState[T]) walk(t *dsl.Thread, i dsl.U32, agg dsl.Exp[T], prefix dsl.Var[T], window int) {
	first := dsl.Let(t, lb.tile.Eq(dsl.N(0)))
	before := dsl.Let(t, lb.tile) // the nearest tile not read is before-1
	done := dsl.Let(t, first.Exp)
	t.While(done.Not(), func(t *dsl.Thread) {
		// The window's words, tile before-1-k at k, all loaded before any
		// is waited on; tiles below 0 are not read (tile 0's word is an
		// inclusive prefix, so the walk stops there).
		at := make([]dsl.U32, window)
		words := make([]dsl.Var[uint64], window)
		for k := range window {
			at[k] = dsl.Let(t, before.Sub(dsl.N(uint32(k+1))).Mul(lb.w).Add(i)).Exp
			words[k] = dsl.Let(t, dsl.Lit[uint64](0))
			t.If(before.Gt(dsl.N(uint32(k))), func(t *dsl.Thread) {
				words[k].Set(lb.status.AtomicLoad(t, at[k], dsl.Relaxed))
			})
		}
		for k := range window {
			t.If(done.Not(), func(t *dsl.Thread) {
				t.While(flagOf(words[k].Exp).Lt(lb.aggregateFlag), func(t *dsl.Thread) {
					words[k].Set(lb.status.AtomicLoad(t, at[k], dsl.Relaxed))
				})
				prefix.Set(lb.op(valueOf[T](words[k].Exp), prefix.Exp))
				done.Set(flagOf(words[k].Exp).Eq(lb.inclusiveFlag))
			})
		}
		before.Set(before.Sub(dsl.N(uint32(window))))
	})
	t.If(first.Not(), func(t *dsl.Thread) {
		lb.status.AtomicStore(t, lb.tile.Mul(lb.w).Add(i), pack(lb.inclusiveFlag, lb.op(prefix.Exp, agg)), dsl.Relaxed)
	})
}

// hasLen reports whether n is the constant want.
func hasLen(n dsl.U32, want uint32) bool {
	got, ok := constLen(n)
	return ok && got == want
}
