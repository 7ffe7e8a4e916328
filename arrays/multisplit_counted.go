package arrays

import (
	"fmt"

	"github.com/obsidian-go/obsidian/dsl"
)

// BlockMultisplitCounted is the multisplit of keys that the block's
// threads hold blocked (NewHeldBlocked), ranked by counters instead of
// votes, as CUB's BlockRadixRank ranks a single tile: each thread counts
// its own keys' digits, one key after another, in counters of its own in
// shared memory, two 16-bit counters a word (digit d in the low half of
// word d for d below 2^(bits-1), in the high half of word d - 2^(bits-1)
// above); the block scans the words with ScanExclusive, digit by digit and
// thread by thread (a word's halves are scanned together, and the high
// halves are then raised by the low halves' total); and a key's rank is
// its digit's scanned counter of its thread plus the keys of that digit
// the thread counted before it. The keys being blocked, that is their
// rank in the stable sort by digit. No key votes or takes an atomic; the
// scan costs 2^(bits-1) words a thread, so that narrow digits pay off.
//
// The ranks are computed when it returns: HeldRanks only hands them out.
// Counts, Offsets and Ranks read as BlockMultisplitHeld's do. The shared
// memory used is a word per thread and pair of digits, laid out by
// BankPadded (for 6-bit digits in a block of 256 threads, 33 KB), and
// ScanExclusive's. bits is 1 to MaxDigitBits; a block whose counters
// exceed the device's shared memory fails to build.
func BlockMultisplitCounted[T dsl.Scalar](b *dsl.Block, bits int, keys Held[T], digit func(dsl.Exp[T]) dsl.U32) Multisplit {
	msg := heldSplitError("BlockMultisplitCounted", b, bits, keys, digit)
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
	rows := 1 << (bits - 1) // words per thread
	words := rows * threads
	counters := dsl.Shared[uint32](b, BankPaddedLen(words))
	// word returns where the thread whose BankPadded index is padded
	// counts digit d, and half the shift of d's half in it. The block is
	// whole warps, so that BankPadded(row·threads + tid) is
	// row·BankPaddedLen(threads) + BankPadded(tid).
	word := func(d, padded dsl.U32) (at, half dsl.U32) {
		row := d.And(dsl.N(uint32(rows - 1)))
		return row.Mul(dsl.N(uint32(BankPaddedLen(threads)))).Add(padded), d.Shr(dsl.N(uint32(bits - 1))).Mul(dsl.N(16))
	}
	ranks := Held[uint32]{n: keys.n, per: keys.per, threads: threads, blocked: true, slots: dsl.Held[uint32](b, keys.per)}
	m := Multisplit{bits: bits, n: keys.n, threads: threads, counters: counters}
	m.held = &heldSplit{each: keys.each, ranks: ranks, ranked: true,
		digit: func(j int) dsl.U32 { return digit(keys.Slot(j)).And(mask) }}
	b.ForAll(dsl.N(uint32(words)), func(t *dsl.Thread, i dsl.U32) { counters.Store(t, BankPadded(i), dsl.N(0)) })
	b.Sync()
	// Each thread counts its keys in order; a key's slot of ranks holds
	// the keys of its digit the thread counted before it.
	b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
		padded := dsl.Let(t, BankPadded(tid))
		keys.each(t, tid, func(j int, _ dsl.U32, valid dsl.Bool) {
			at, half := word(dsl.Let(t, m.held.digit(j)).Exp, padded.Exp)
			w, h := dsl.Let(t, at), dsl.Let(t, half)
			count := dsl.Let(t, counters.At(w.Exp))
			ranks.slots.Store(t, dsl.N(uint32(j)), count.Shr(h.Exp).And(dsl.N(0xffff)))
			t.If(valid, func(t *dsl.Thread) { counters.Store(t, w.Exp, count.Add(dsl.N(1).Shl(h.Exp))) })
		})
	})
	b.Sync()
	scan := BlockScan(b, dsl.U32.Add, Generate(dsl.N(uint32(words)), func(i dsl.U32) dsl.U32 { return counters.At(BankPadded(i)) }))
	scan.Exclusive(dsl.N(0)).Run(b, func(t *dsl.Thread, i, v dsl.U32) { counters.Store(t, BankPadded(i), v) })
	// The keys of the low digits, which come before every high one.
	low := dsl.Let(b, scan.Total().And(dsl.N(0xffff))).Exp
	b.Sync()
	scanned := func(d, padded dsl.U32) dsl.U32 {
		at, half := word(d, padded)
		return counters.At(at).Shr(half).And(dsl.N(0xffff)).Add(dsl.Select(half.Eq(dsl.N(0)), dsl.N(0), low))
	}
	m.first = func(d dsl.U32) dsl.U32 { return scanned(d, dsl.N(0)) }
	b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
		padded := dsl.Let(t, BankPadded(tid))
		keys.each(t, tid, func(j int, _ dsl.U32, _ dsl.Bool) {
			slot := dsl.N(uint32(j))
			ranks.slots.Store(t, slot, ranks.slots.At(slot).Add(scanned(m.held.digit(j), padded.Exp)))
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
