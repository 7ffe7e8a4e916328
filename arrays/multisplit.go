package arrays

import (
	"fmt"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/simplify"
)

// MaxDigitBits is the widest digit Multisplit and WarpPeers take: 8 bits,
// 256 digits.
const MaxDigitBits = 8

// badBits returns why bits is not a width of digit, or "".
func badBits(what string, bits int) string {
	if bits < 1 || bits > MaxDigitBits {
		return fmt.Sprintf("%s of digits of %d bits: bits must be 1 to %d", what, bits, MaxDigitBits)
	}
	return ""
}

// WarpPeers returns, in every lane, the mask of the lanes of the warp whose
// digit has the same low bits bits as the lane's own (the lane included):
// one vote per bit (Agree), ANDed (Ashkiani et al.'s warp-level
// multisplit; __match_any_sync on the low bits). Like WarpScan, it runs in the Thread
// body of a ForAll that runs every lane of each warp, outside any condition
// that may differ between its lanes. The number of the lane's peers below
// it is the popcount of the mask and the lanes below. bits (a constant of
// the program, 1 to MaxDigitBits) out of range is an error.
func WarpPeers(t *dsl.Thread, digit dsl.U32, bits int) dsl.U32 {
	if msg := badBits("WarpPeers", bits); msg != "" {
		return dsl.Let(t, dsl.Invalid[uint32](msg)).Exp
	}
	d := dsl.Let(t, digit)
	peers := dsl.Let(t, dsl.N(^uint32(0)))
	for bit := range bits {
		peers.Set(peers.And(dsl.Agree(t, d.And(dsl.N(uint32(1)<<bit)).Ne(dsl.N(0)))))
	}
	return peers.Exp
}

// Multisplit is the stable multisplit of the elements of an array by a
// digit of a few bits, in a block (CUB's BlockRadixRank): each element's
// rank in the stable sort of the array by digit, the count of each digit
// and the digits' offsets (the exclusive scan of the counts), what a radix
// sort pass needs. BlockMultisplit builds it.
type Multisplit struct {
	bits    int
	n       dsl.U32
	digit   func(i dsl.U32) dsl.U32 // the digit of element i, below 2^bits
	r       tiles
	threads int
	// stride is the number of counters of each digit: one per warp, and
	// one more when the warps are even in number, so that the lanes of a
	// warp updating the counters of different digits hit different banks.
	stride int
	// counters holds, at digit*stride + warp, the number of elements of
	// the array before the warp's elements whose digit is below digit,
	// plus those of digit in earlier warps: the exclusive scan of the
	// (digit, warp) counts.
	counters dsl.Array[uint32]
	// partial holds, for an array whose length has a constant bound up to
	// maxPartialRanks, each element's rank among the elements of its digit
	// that its warp holds. Otherwise it is the zero Array, and work is a
	// copy of counters that the ranking counts up.
	partial dsl.Array[uint16]
	work    dsl.Array[uint32]
	// first returns the scanned counter of digit d's first warp (thread,
	// for BlockMultisplitCounted): the number of keys whose digit is
	// below d.
	first func(d dsl.U32) dsl.U32
	// held is set for a multisplit of keys the threads hold
	// (BlockMultisplitHeld, BlockMultisplitCounted), which keeps the
	// partial ranks in registers.
	held *heldSplit
	bad  string // why the multisplit could not be built
}

// heldSplit is what a multisplit of held keys keeps of them.
type heldSplit struct {
	each  func(t *dsl.Thread, tid dsl.U32, body func(j int, i dsl.U32, valid dsl.Bool))
	digit func(j int) dsl.U32 // the digit of the running thread's key in slot j
	// partial holds each key's rank among the keys of its digit that its
	// warp holds (the partial rank), ranks each key's rank once HeldRanks
	// has run (ranked).
	partial partialRanks
	ranks   Held[uint32]
	ranked  bool
}

// partialRanks are the partial ranks of a thread's held keys, two to a
// register, 16 bits each: a warp holds at most 32 × UnrollLimit keys, so
// that every partial rank fits. A thread holding many keys then keeps
// them and their partial ranks in registers as it ranks them: the radix
// pass's threads of 19 uint32 keys, with 56 registers, had a stack frame
// of 176 bytes for its spilled registers with a register for each
// partial rank, 80 with them packed.
type partialRanks struct{ words dsl.Array[uint32] }

// A partial rank is below the keys a warp holds.
const _ = uint16(ir.WarpSize*UnrollLimit - 1)

// newPartialRanks allocates in b the partial ranks of per keys a thread.
func newPartialRanks(b *dsl.Block, per int) partialRanks {
	return partialRanks{words: dsl.Held[uint32](b, (per+1)/2)}
}

// store records in t that the partial rank of slot j is r: an even slot
// sets the low half of its register, the odd one after it the high half.
func (p partialRanks) store(t *dsl.Thread, j int, r dsl.U32) {
	word := dsl.N(uint32(j / 2))
	if j%2 == 0 {
		p.words.Store(t, word, r)
		return
	}
	p.words.Store(t, word, p.words.At(word).Or(r.Shl(dsl.N(16))))
}

// at returns the partial rank of slot j.
func (p partialRanks) at(j int) dsl.U32 {
	word := p.words.At(dsl.N(uint32(j / 2)))
	if j%2 == 0 {
		return word.And(dsl.N(1<<16 - 1))
	}
	return word.Shr(dsl.N(16))
}

// newHeldSplit returns what a multisplit of the held keys by digit (cut
// to mask) keeps of them, with their ranks in ranks.
func newHeldSplit[T dsl.Scalar](keys Held[T], ranks Held[uint32], digit func(dsl.Exp[T]) dsl.U32, mask dsl.U32) *heldSplit {
	return &heldSplit{each: keys.each, ranks: ranks, digit: func(j int) dsl.U32 { return digit(keys.Slot(j)).And(mask) }}
}

// maxPartialRanks is the longest array whose partial ranks are kept, in
// 16 KiB of shared memory (uint16, which holds every rank below 2^16).
const maxPartialRanks = 1 << 13

// BlockMultisplit records in b the first steps of the multisplit of keys
// by digit, of which bits (a constant of the program, 1 to MaxDigitBits)
// count: digit(key) & (2^bits - 1). The keys are dealt to the block's warps
// in tiles of ir.WarpSize consecutive keys, a lane per key, each warp a run
// of consecutive tiles; each warp finds the lanes with the key's digit in
// each tile by bits ballots (WarpPeers), and the lowest of them adds their
// number to the warp's counter of the digit in shared memory (a shared
// atomic per digit present in the tile). After a barrier the block scans
// the counters, digit by digit and warp by warp, with ScanExclusive, so
// that an element's rank is its digit's offset, plus the keys of its digit
// in earlier warps, tiles and lanes.
//
// When the length of keys has a constant bound (a Take from an array of
// constant length, such as a tile in shared memory), the counting pass
// also keeps each key's rank within its warp (the counter's old value,
// shuffled from the lowest lane, plus the lanes below) in shared memory,
// and Ranks adds it to the scanned counter: each key is matched once.
// Keys past the bound are not split. Otherwise (or past 8192 keys) Ranks
// goes over the tiles again, each warp counting up a copy of its counters
// the same way. keys may have any length; digit is called twice per key.
//
// The shared memory used is one counter per digit and warp (256 × 33 × 4
// bytes for 8-bit digits in a block of 1024 threads), ScanExclusive's, and
// either the partial ranks (2 bytes per key) or a second
// counter per digit and warp.
func BlockMultisplit[T dsl.Scalar](b *dsl.Block, bits int, keys Pull[T], digit func(dsl.Exp[T]) dsl.U32) Multisplit {
	msg := badBits("BlockMultisplit", bits)
	if msg == "" && digit == nil {
		msg = "BlockMultisplit with a nil digit function: give a function of a key to its digit (a U32)"
	}
	if msg == "" && b.Threads() == 0 {
		msg = "BlockMultisplit on a nil builder (*dsl.Block)"
	}
	if msg != "" {
		dsl.Let(b, dsl.Invalid[uint32](msg))
		return Multisplit{bad: msg}
	}
	threads := b.Threads()
	warps := threads / ir.WarpSize
	mask := dsl.N(1<<bits - 1)
	n := keys.n
	most, bounded := keys.maxLen()
	bounded = bounded && most > 0 && most <= maxPartialRanks
	if _, fixed := constLen(n); bounded && !fixed {
		n = dsl.Let(b, n.Min(dsl.N(most))).Exp // memory-safe past a broken bound
	}
	split := Take(n, keys) // every read below n, the length split
	m := Multisplit{bits: bits, n: n, threads: threads, stride: warps | 1,
		digit: func(i dsl.U32) dsl.U32 { return digit(clamped(split, i)).And(mask) }}
	if bounded { // the warps of most keys: a constant dealing
		m.r = dealTilesUpTo(n, most, warps)
	} else {
		m.r = dealTiles(b, n, warps)
	}
	size := (1 << bits) * m.stride
	m.counters = dsl.Shared[uint32](b, size)
	m.first = firstOfWarps(m.counters, m.stride)
	if bounded {
		m.partial = dsl.Shared[uint16](b, int(most))
	} else {
		m.work = dsl.Shared[uint32](b, size)
	}
	m.countAndScan(b, func(t *dsl.Thread, tid dsl.U32) {
		m.eachPeers(t, tid, func(t *dsl.Thread, i dsl.U32, valid dsl.Bool, counter, peers, below dsl.U32) {
			if !m.bounded() {
				t.If(valid.And(below.Eq(dsl.N(0))), func(t *dsl.Thread) {
					m.counters.Atomic(t, dsl.AtomicAdd, counter, peers.PopCount())
				})
				return
			}
			rank := countUp(t, m.counters, valid, counter, peers, below)
			t.If(valid, func(t *dsl.Thread) { m.partial.Store(t, i, dsl.Cast[uint16](rank)) })
		})
	})
	return m
}

// countAndScan zeroes m's counters, runs count in every thread of b (tid
// its index), and scans the counters, digit by digit and warp by warp.
func (m Multisplit) countAndScan(b *dsl.Block, count func(t *dsl.Thread, tid dsl.U32)) {
	zeroCounters(b, m.counters, (1<<m.bits)*m.stride)
	b.Sync()
	m.countAndScanZeroed(b, count)
}

// zeroCounters records in b the zeroing of the first n counters.
func zeroCounters(b *dsl.Block, counters dsl.Array[uint32], n int) {
	b.ForAll(dsl.N(uint32(n)), func(t *dsl.Thread, i dsl.U32) { counters.Store(t, i, dsl.N(0)) })
}

// countAndScanZeroed is countAndScan of counters zeroed before a barrier.
func (m Multisplit) countAndScanZeroed(b *dsl.Block, count func(t *dsl.Thread, tid dsl.U32)) {
	b.ForAll(dsl.N(uint32(m.threads)), count)
	b.Sync()
	ScanExclusive[*dsl.Block](dsl.U32.Add, dsl.N(0), FromArray(m.counters)).Run(b, m.counters.Store)
	b.Sync()
}

// BlockMultisplitHeld is BlockMultisplit of keys that the block's threads
// hold (NewHeld), as CUB's BlockRadixRankMatch ranks the keys its threads
// hold in registers: each warp goes over its slots in order, a tile of 32
// keys each, and keeps each key's rank within its warp (the partial rank)
// in registers of its thread, two to a register, not in shared memory.
// The ranks are then HeldRanks (held as the keys are, for Held.ScatterBy)
// or Ranks. The shared memory used is one counter per digit and warp and
// ScanExclusive's.
func BlockMultisplitHeld[T dsl.Scalar](b *dsl.Block, bits int, keys Held[T], digit func(dsl.Exp[T]) dsl.U32) Multisplit {
	if msg := heldMultisplitError("BlockMultisplitHeld", b, bits, keys, digit); msg != "" {
		return badMultisplit(b, msg)
	}
	c := NewMultisplitCounters(b, bits)
	b.Sync()
	return BlockMultisplitHeldOn(b, c, keys, digit)
}

// MultisplitCounters are the shared counters of a multisplit of held keys
// (one per digit and warp), which NewMultisplitCounters records the
// zeroing of, with no barrier after it. BlockMultisplitHeldOn takes them as
// zeroed, so that a barrier the block passes between the two (as the one of
// Held.Uniform, before a tile is ranked) stands for the one
// BlockMultisplitHeld places between zeroing and counting.
type MultisplitCounters struct {
	bits, threads, stride int
	counters              dsl.Array[uint32]
}

// NewMultisplitCounters allocates the counters of a multisplit of digits
// of bits bits (a constant of the program, 1 to MaxDigitBits) in the
// block b and records their zeroing, without a barrier.
func NewMultisplitCounters(b *dsl.Block, bits int) MultisplitCounters {
	if msg := badBits("NewMultisplitCounters", bits); msg != "" {
		dsl.Let(b, dsl.Invalid[uint32](msg))
		return MultisplitCounters{}
	}
	threads := b.Threads()
	c := MultisplitCounters{bits: bits, threads: threads, stride: threads/ir.WarpSize | 1}
	c.counters = dsl.Shared[uint32](b, (1<<bits)*c.stride)
	zeroCounters(b, c.counters, (1<<bits)*c.stride)
	return c
}

// BlockMultisplitHeldOn is BlockMultisplitHeld on counters zeroed by
// NewMultisplitCounters in the same block, with a barrier since: without
// that barrier the counting races with the zeroing (the evaluator reports
// it). The counters serve one multisplit.
func BlockMultisplitHeldOn[T dsl.Scalar](b *dsl.Block, c MultisplitCounters, keys Held[T],
	digit func(dsl.Exp[T]) dsl.U32) Multisplit {
	msg := ""
	if c.bits == 0 {
		msg = "BlockMultisplitHeldOn of counters not made by NewMultisplitCounters"
	}
	if msg == "" {
		msg = heldMultisplitError("BlockMultisplitHeldOn", b, c.bits, keys, digit)
	}
	if msg == "" && c.threads != b.Threads() {
		msg = fmt.Sprintf("BlockMultisplitHeldOn of counters made for a block of %d threads in a block of %d "+
			"(make them with NewMultisplitCounters in the same block)", c.threads, b.Threads())
	}
	if msg != "" {
		return badMultisplit(b, msg)
	}
	bits := c.bits
	mask := dsl.N(1<<bits - 1)
	m := Multisplit{bits: bits, n: keys.n, threads: c.threads, stride: c.stride, counters: c.counters}
	m.first = firstOfWarps(m.counters, m.stride)
	ranks := Held[uint32]{n: keys.n, per: keys.per, threads: c.threads, slots: dsl.Held[uint32](b, keys.per)}
	m.held = newHeldSplit(keys, ranks, digit, mask)
	m.held.partial = newPartialRanks(b, keys.per)
	m.countAndScanZeroed(b, func(t *dsl.Thread, tid dsl.U32) {
		lanesBelow := dsl.Let(t, lanesBelowMask(dsl.LaneOf(tid)))
		keys.each(t, tid, func(j int, _ dsl.U32, valid dsl.Bool) {
			d := dsl.Let(t, m.held.digit(j))
			peers := WarpPeers(t, d.Exp, bits)
			if !isTrue(valid) { // a partial tile: its lanes past the end are no one's peers
				peers = dsl.Let(t, peers.And(dsl.Ballot(t, valid))).Exp
			}
			below := peers.And(lanesBelow.Exp).PopCount()
			counter := d.Mul(dsl.N(uint32(m.stride))).Add(dsl.WarpIdx)
			m.held.partial.store(t, j, countUp(t, m.counters, valid, counter, peers, below))
		})
	})
	return m
}

// heldMultisplitError returns why a multisplit of held keys cannot be
// built, or "".
func heldMultisplitError[T dsl.Scalar](what string, b *dsl.Block, bits int, keys Held[T], digit func(dsl.Exp[T]) dsl.U32) string {
	msg := heldSplitError(what, b, bits, keys, digit)
	if msg == "" && keys.blocked {
		msg = what + " of keys held blocked (NewHeldBlocked): it ranks keys held warp-striped (NewHeld); " +
			"rank blocked keys with BlockMultisplitCounted"
	}
	return msg
}

// badMultisplit records msg in b (when there is one) and returns the
// Multisplit that reports it.
func badMultisplit(b *dsl.Block, msg string) Multisplit {
	if b != nil {
		dsl.Let(b, dsl.Invalid[uint32](msg))
	}
	return Multisplit{bad: msg}
}

// isTrue reports whether b is the constant true.
func isTrue(b dsl.Bool) bool {
	v, ok := simplify.Constant(b.IR())
	return ok && v.Bool()
}

// heldRank returns the rank of the running thread's key in slot j of a
// multisplit of held keys.
func (m Multisplit) heldRank(j int) dsl.U32 {
	if m.held.ranked {
		return m.held.ranks.Slot(j)
	}
	at := m.held.digit(j).Mul(dsl.N(uint32(m.stride))).Add(dsl.WarpIdx)
	return m.counters.At(at).Add(m.held.partial.at(j))
}

// HeldRanks returns the rank of each key of a multisplit of held keys,
// held as the keys are (for Held.ScatterBy): the first call records in b
// the adding of each key's digit's scanned counter of its warp to its
// partial rank, in registers; later calls return the same ranks.
func (m Multisplit) HeldRanks(b *dsl.Block) Held[uint32] {
	msg := m.invalid("HeldRanks")
	if msg == "" && m.held == nil {
		msg = "HeldRanks of a multisplit of keys in an array: BlockMultisplitHeld splits held keys; use Ranks"
	}
	if msg != "" {
		dsl.Let(b, dsl.Invalid[uint32](msg))
		return Held[uint32]{bad: msg}
	}
	if !m.held.ranked {
		b.ForAll(dsl.N(uint32(m.threads)), func(t *dsl.Thread, tid dsl.U32) {
			m.held.each(t, tid, func(j int, _ dsl.U32, _ dsl.Bool) {
				m.held.ranks.slots.Store(t, dsl.N(uint32(j)), m.heldRank(j))
			})
		})
		m.held.ranked = true
	}
	return m.held.ranks
}

// bounded reports whether m keeps partial ranks.
func (m Multisplit) bounded() bool { return m.partial.IR() != nil }

// countUp adds, in the lowest of the lanes peers of a tile, their number
// to the counter of their digit, and returns in each of them the
// counter's value before, plus below: the lane's rank among the elements
// the counter counts. Every lane of the warp runs it (it shuffles).
func countUp(t *dsl.Thread, counters dsl.Array[uint32], valid dsl.Bool, counter, peers, below dsl.U32) dsl.U32 {
	base := dsl.Let(t, dsl.N(0))
	t.If(valid.And(below.Eq(dsl.N(0))), func(t *dsl.Thread) {
		base.Set(counters.Fetch(t, dsl.AtomicAdd, counter, peers.PopCount()))
	})
	// The lowest peer; a lane past the end has none, and reads lane 31.
	leader := peers.FindFirstSet().Sub(dsl.N(1)).And(dsl.N(ir.WarpSize - 1))
	return dsl.Let(t, dsl.Shuffle(t, dsl.ShuffleIdx, base.Exp, leader).Add(below)).Exp
}

// eachPeers runs body in the thread tid of the block for every tile of its
// warp, in order (every lane of the warp runs it, so that it may shuffle):
// i is the index of the lane's key, valid whether it is one of the array,
// and for a valid key, counter is the index of the counter of its digit
// and warp, peers the mask of the lanes of the tile with its digit, and
// below how many of them are below its lane.
func (m Multisplit) eachPeers(t *dsl.Thread, tid dsl.U32,
	body func(t *dsl.Thread, i dsl.U32, valid dsl.Bool, counter, peers, below dsl.U32)) {
	lane := dsl.LaneOf(tid)
	lanesBelow := dsl.Let(t, lanesBelowMask(lane))
	first, count := m.r.ofWarp(dsl.WarpIdx)
	m.r.each(t, first, count, lane, func(t *dsl.Thread, i dsl.U32, valid dsl.Bool) {
		d := dsl.Let(t, m.digit(i))
		peers := dsl.Let(t, WarpPeers(t, d.Exp, m.bits).And(dsl.Ballot(t, valid)))
		below := dsl.Let(t, peers.And(lanesBelow.Exp).PopCount())
		counter := d.Mul(dsl.N(uint32(m.stride))).Add(dsl.WarpIdx)
		body(t, i, valid, counter, peers.Exp, below.Exp)
	})
}

// invalid returns the error a method of a Multisplit that is not built
// reports, or "".
func (m Multisplit) invalid(method string) string {
	switch {
	case m.bad != "":
		return method + " of a failed " + m.bad
	case m.threads == 0:
		return method + " of a zero Multisplit (multisplits come from BlockMultisplit)"
	}
	return ""
}

// Ranks returns, at index i, the rank of element i in the stable sort of
// the keys by digit (where ScatterByRank puts it), as a Push array of the
// block, to run in the block body given to BlockMultisplit. With partial
// ranks kept (in shared memory, or for held keys in the registers of the
// thread that holds each key, which writes its keys' ranks), element i's
// rank is its digit's scanned counter of the warp that held it plus its
// partial rank. Otherwise each run copies the
// counters (between two barriers) and goes over the keys' tiles again: the
// lowest lane with a digit in a tile adds their number to its warp's copy
// of the digit's counter with a shared atomic, whose old value it shuffles
// to the others, which add the number of lanes with the digit below
// theirs.
func (m Multisplit) Ranks() Push[*dsl.Block, uint32] {
	if msg := m.invalid("Ranks"); msg != "" {
		bad := dsl.Invalid[uint32](msg)
		return Push[*dsl.Block, uint32]{n: bad, run: func(b *dsl.Block, _ Writer[uint32]) { dsl.Let(b, bad) }}
	}
	if m.held != nil {
		return Push[*dsl.Block, uint32]{n: m.n, run: func(b *dsl.Block, w Writer[uint32]) {
			b.ForAll(dsl.N(uint32(m.threads)), func(t *dsl.Thread, tid dsl.U32) {
				m.held.each(t, tid, func(j int, i dsl.U32, valid dsl.Bool) {
					t.If(valid, func(t *dsl.Thread) { w(t, i, m.heldRank(j)) })
				})
			})
		}}
	}
	if m.bounded() {
		return ToPush[*dsl.Block](Generate(m.n, func(i dsl.U32) dsl.U32 {
			warp := i.Div(dsl.N(ir.WarpSize)).Div(m.r.perWarp)
			return m.counters.At(m.digit(i).Mul(dsl.N(uint32(m.stride))).Add(warp)).Add(dsl.Cast[uint32](m.partial.At(i)))
		}))
	}
	return Push[*dsl.Block, uint32]{n: m.n, run: m.rank}
}

// rank records Ranks without partial ranks in b.
func (m Multisplit) rank(b *dsl.Block, w Writer[uint32]) {
	b.Sync() // the copy of an earlier run may still be counted up
	ToPush[*dsl.Block](FromArray(m.counters)).Run(b, m.work.Store)
	b.Sync()
	b.ForAll(dsl.N(uint32(m.threads)), func(t *dsl.Thread, tid dsl.U32) {
		m.eachPeers(t, tid, func(t *dsl.Thread, i dsl.U32, valid dsl.Bool, counter, peers, below dsl.U32) {
			rank := countUp(t, m.work, valid, counter, peers, below)
			t.If(valid, func(t *dsl.Thread) { w(t, i, rank) })
		})
	})
}

// Offsets returns the offset of each of the 2^bits digits: the number of
// keys whose digit is below it, read from shared memory in the block body
// given to BlockMultisplit.
func (m Multisplit) Offsets() Pull[uint32] {
	if msg := m.invalid("Offsets"); msg != "" {
		return Replicate(dsl.N(1), dsl.Invalid[uint32](msg))
	}
	return Generate(dsl.N(1<<m.bits), m.offset)
}

// offset returns the offset of digit d, for d up to 2^bits (the number of
// keys for 2^bits).
func (m Multisplit) offset(d dsl.U32) dsl.U32 {
	last := dsl.N(1<<m.bits - 1)
	return dsl.Select(d.Gt(last), m.n, m.first(d.Min(last)))
}

// firstOfWarps returns Multisplit.first for counters of stride words a
// digit, one per warp: digit d's counter of warp 0.
func firstOfWarps(counters dsl.Array[uint32], stride int) func(d dsl.U32) dsl.U32 {
	return func(d dsl.U32) dsl.U32 { return counters.At(d.Mul(dsl.N(uint32(stride)))) }
}

// Counts returns the number of keys of each of the 2^bits digits (the
// digits' histogram), read from shared memory like Offsets.
func (m Multisplit) Counts() Pull[uint32] {
	if msg := m.invalid("Counts"); msg != "" {
		return Replicate(dsl.N(1), dsl.Invalid[uint32](msg))
	}
	return Generate(dsl.N(1<<m.bits), func(d dsl.U32) dsl.U32 { return m.offset(d.Add(dsl.N(1))).Sub(m.offset(d)) })
}
