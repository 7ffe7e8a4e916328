package arrays

import (
	"fmt"

	"github.com/obsidian-go/obsidian/dsl"
)

// MaxCountedBits is the widest digit BlockMultisplitCounted takes: 5
// bits, 32 counters a thread, which each thread holds in registers
// through the scan of the counters.
const MaxCountedBits = 5

// BlockMultisplitCounted is the multisplit of keys that the block's
// threads hold blocked (NewHeldBlocked), ranked by counters instead of
// votes, as CUB's BlockRadixRank ranks a single tile: each thread counts
// its own keys' digits, one key after another, in counters of its own in
// shared memory (a word per digit and thread, digit-major, laid out by
// BankPadded), which gives each key the number of keys of its digit the
// thread counted before it; the block scans the counters, digit by digit
// and thread by thread, each thread raking the 2^bits consecutive words
// that fall to it (held in registers between the two halves of the scan)
// and WarpTotals joining the threads; and a key's rank is its digit's
// scanned counter of its thread plus the keys of that digit the thread
// counted before it. The keys being blocked, that is their rank in the
// stable sort by digit. No key votes or takes an atomic: per key a read and
// a write of a counter and, once scanned, one more read.
//
// The ranks are computed when it returns: HeldRanks only hands them out.
// Counts, Offsets and Ranks read as BlockMultisplitHeld's do. The shared
// memory used is a word per thread and digit (for 5-bit digits in a block
// of 256 threads, 33 KB) and one per warp. bits is 1 to MaxCountedBits.
func BlockMultisplitCounted[T dsl.Scalar](b *dsl.Block, bits int, keys Held[T], digit func(dsl.Exp[T]) dsl.U32) Multisplit {
	msg := heldSplitError("BlockMultisplitCounted", b, bits, keys, digit)
	if msg == "" && bits > MaxCountedBits {
		msg = fmt.Sprintf("BlockMultisplitCounted of digits of %d bits: bits must be 1 to %d (a thread's counters are "+
			"held in registers); split wider digits with BlockMultisplitHeld", bits, MaxCountedBits)
	}
	if msg == "" && !keys.blocked {
		msg = "BlockMultisplitCounted of keys held warp-striped (NewHeld): it ranks keys held blocked (NewHeldBlocked); " +
			"rank warp-striped keys with BlockMultisplitHeld"
	}
	if msg != "" {
		if b != nil {
			dsl.Let(b, dsl.Invalid[uint32](msg))
		}
		return Multisplit{bad: msg}
	}
	threads := b.Threads()
	mask := dsl.N(1<<bits - 1)
	digits := 1 << bits
	counters := dsl.Shared[uint32](b, BankPaddedLen(digits*threads))
	// The counter of digit d and the thread whose BankPadded index is
	// padded: the block is whole warps, so that BankPadded(d·threads +
	// tid) is d·BankPaddedLen(threads) + BankPadded(tid).
	counter := func(d, padded dsl.U32) dsl.U32 { return d.Mul(dsl.N(uint32(BankPaddedLen(threads)))).Add(padded) }
	// The k-th word a thread rakes, from the first's place: its words
	// never cross a run of 32, as 2^bits divides 32.
	raked := func(first dsl.U32, k int) dsl.U32 { return first.Add(dsl.N(uint32(k))) }
	ranks := Held[uint32]{n: keys.n, per: keys.per, threads: threads, blocked: true, slots: dsl.Held[uint32](b, keys.per)}
	m := Multisplit{bits: bits, n: keys.n, threads: threads, counters: counters,
		first: func(d dsl.U32) dsl.U32 { return counters.At(counter(d, dsl.N(0))) }}
	m.held = newHeldSplit(keys, ranks, digit, mask)
	m.held.ranked = true
	// Each thread zeroes its counters and counts its keys in order; a
	// key's slot of ranks holds the keys of its digit counted before it.
	b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
		padded := dsl.Let(t, BankPadded(tid))
		for d := range digits {
			counters.Store(t, counter(dsl.N(uint32(d)), padded.Exp), dsl.N(0))
		}
		keys.each(t, tid, func(j int, _ dsl.U32, valid dsl.Bool) {
			at := dsl.Let(t, counter(m.held.digit(j), padded.Exp))
			count := dsl.Let(t, counters.At(at.Exp))
			ranks.slots.Store(t, dsl.N(uint32(j)), count.Exp)
			t.If(valid, func(t *dsl.Thread) { counters.Store(t, at.Exp, count.Add(dsl.N(1))) })
		})
	})
	b.Sync()
	// The scan: thread tid rakes words tid·2^bits to tid·2^bits + 2^bits - 1
	// of the digit-major order, keeping them in registers, and the warps'
	// totals join the threads.
	rake := dsl.Held[uint32](b, digits+1) // the raked words, then the thread's exclusive prefix in its warp
	totals := NewWarpTotals(b, dsl.U32.Add)
	b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
		first := dsl.Let(t, BankPadded(tid.Mul(dsl.N(uint32(digits)))))
		sum := dsl.Let(t, dsl.N(0))
		for k := range digits {
			word := dsl.Let(t, counters.At(raked(first.Exp, k)))
			rake.Store(t, dsl.N(uint32(k)), word.Exp)
			sum.Set(sum.Add(word.Exp))
		}
		rake.Store(t, dsl.N(uint32(digits)), totals.Scan(t, tid, sum.Exp).Sub(sum.Exp))
	})
	b.Sync()
	b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
		first := dsl.Let(t, BankPadded(tid.Mul(dsl.N(uint32(digits)))))
		running := dsl.Let(t, rake.At(dsl.N(uint32(digits))).Add(totals.Before(t, dsl.WarpOf(tid), dsl.N(0))))
		for k := range digits {
			counters.Store(t, raked(first.Exp, k), running.Exp)
			running.Set(running.Add(rake.At(dsl.N(uint32(k)))))
		}
	})
	b.Sync()
	b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
		padded := dsl.Let(t, BankPadded(tid))
		keys.each(t, tid, func(j int, _ dsl.U32, _ dsl.Bool) {
			slot := dsl.N(uint32(j))
			ranks.slots.Store(t, slot, ranks.slots.At(slot).Add(counters.At(counter(m.held.digit(j), padded.Exp))))
		})
	})
	return m
}

// heldSplitError returns why a multisplit of held keys (what names it)
// cannot be built, or "".
func heldSplitError[T dsl.Scalar](what string, b *dsl.Block, bits int, keys Held[T], digit func(dsl.Exp[T]) dsl.U32) string {
	msg := badBits(what, bits)
	if msg == "" {
		msg = keys.invalid(what)
	}
	if msg == "" && digit == nil {
		msg = what + " with a nil digit function: give a function of a key to its digit (a U32)"
	}
	if msg == "" && keys.threads != b.Threads() {
		msg = fmt.Sprintf("%s in a block of %d threads of keys held by %d", what, b.Threads(), keys.threads)
	}
	return msg
}
