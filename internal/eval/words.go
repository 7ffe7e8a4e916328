package eval

import (
	goruntime "runtime"
	gosync "sync"
	"sync/atomic"
	"unsafe"
)

// Global memory that a launch writes has one 32-bit word per cell, shared
// by the blocks that run at once, which says which kinds of access the
// cell's first block (its owner) made and which kinds other blocks made.
// That is enough to find two blocks' accesses that conflict, whichever
// runs first: a read or an atomic conflicts with another block's plain
// write, a plain write with another block's access of any kind, except
// that SameValue writes of one value do not conflict with each other.
// Which of the two accesses is reported depends on the order the blocks
// ran in.
//
// Each group of 1<<lockBits cells has a lock, held while an access reads and
// writes a cell's word and bytes, so that atomics are atomic, a read sees
// a whole value, and the workers are race-free. The accesses of a warp to
// neighbouring cells take the lock once.
//
// The word's bits:
//
//	0-23   owner: 0 none, 1 + the block's index in its phase, or earlierOwner
//	24     mixed: the plain writes so far were not all SameValue writes of one value
//	25-27  kinds of access of the owner (1 << accessKind)
//	28-30  kinds of access of other blocks
//
// A launch of more blocks than the owner field holds runs in phases of
// phaseBlocks blocks; between phases every owner becomes earlierOwner, a
// block that is not any of the next phase's.
const (
	ownerBits    = 24
	ownerMask    = 1<<ownerBits - 1
	earlierOwner = ownerMask
	mixedBit     = 1 << ownerBits
	ownerShift   = ownerBits + 1
	othersShift  = ownerBits + 4
	kindMask     = 7
)

// phaseBlocks is the number of blocks of a phase, a variable so that tests
// can lower it.
var phaseBlocks = earlierOwner - 1

// kindBit is the bit of kind k in a field of kinds.
func kindBit(k accessKind) uint32 { return 1 << k }

// A group of 1<<lockBits cells shares a lock; a page of blockWords holds
// 1<<wordPageBits cells.
const (
	lockBits     = 4
	wordPageBits = 12
)

// wordPage is a page of blockWords.
type wordPage struct {
	words [1 << wordPageBits]uint32
	locks [1 << (wordPageBits - lockBits)]uint32
}

// wordPages keeps released pages, zeroed, for the next launches, so that a
// pipeline of launches does not leave a new region's words to the garbage
// collector every time.
var wordPages = gosync.Pool{New: func() any { return new(wordPage) }}

// blockWords is the words and locks of the cells of a global region: those
// of a region of at most a page, or pages allocated as they are touched,
// from any of the launch's workers.
type blockWords struct {
	small, smallLocks []uint32
	pages             []atomic.Pointer[wordPage]
}

func newBlockWords(cells int) *blockWords {
	if cells <= 1<<wordPageBits {
		return &blockWords{small: make([]uint32, cells), smallLocks: make([]uint32, (cells>>lockBits)+1)}
	}
	return &blockWords{pages: make([]atomic.Pointer[wordPage], (cells>>wordPageBits)+1)}
}

// wordsBytes is the size of the words of a region of cells cells.
func wordsBytes(cells int64) int64 {
	if cells <= 1<<wordPageBits {
		return 4 * (cells + cells>>lockBits + 1)
	}
	return (cells + 1<<wordPageBits - 1) >> wordPageBits * int64(unsafe.Sizeof(wordPage{}))
}

// at returns the word of cell and the lock of its group.
func (bw *blockWords) at(cell int) (word, lock *uint32) {
	if word, lock, ok := bw.quickAt(cell); ok {
		return word, lock
	}
	slot := &bw.pages[cell>>wordPageBits]
	p := wordPages.Get().(*wordPage)
	if !slot.CompareAndSwap(nil, p) {
		wordPages.Put(p)
	}
	word, lock, _ = bw.quickAt(cell)
	return word, lock
}

// quickAt is at when that needs no call: ok is false when the cell's page
// is not allocated yet.
func (bw *blockWords) quickAt(cell int) (word, lock *uint32, ok bool) {
	if bw.small != nil {
		return &bw.small[cell], &bw.smallLocks[cell>>lockBits], true
	}
	p := bw.pages[cell>>wordPageBits].Load()
	if p == nil {
		return nil, nil, false
	}
	i := cell & (1<<wordPageBits - 1)
	return &p.words[i], &p.locks[i>>lockBits], true
}

// heldLock is the lock of a group of cells that a warp's accesses hold:
// one at a time, so that workers never wait for one another in a cycle.
type heldLock struct {
	lock *uint32 // nil: none held
}

// take holds lock l, freeing the one held before unless it is l.
func (h *heldLock) take(l *uint32) {
	if h.lock == l {
		return
	}
	h.free()
	for spins := 0; !atomic.CompareAndSwapUint32(l, 0, 1); spins++ {
		if spins%64 == 63 {
			goruntime.Gosched()
		}
	}
	h.lock = l
}

// free gives the held lock back.
func (h *heldLock) free() {
	if h.lock != nil {
		atomic.StoreUint32(h.lock, 0)
		h.lock = nil
	}
}

// endPhase makes every owner an earlierOwner. No block may be running.
func (bw *blockWords) endPhase() {
	endPhase(bw.small)
	for i := range bw.pages {
		if p := bw.pages[i].Load(); p != nil {
			endPhase(p.words[:])
		}
	}
}

func endPhase(words []uint32) {
	for j, v := range words {
		if owner := v & ownerMask; owner != 0 && owner != earlierOwner {
			words[j] = v&^ownerMask | earlierOwner
		}
	}
}

// release gives the pages back, zeroed, for other launches.
func (bw *blockWords) release() {
	for i := range bw.pages {
		if p := bw.pages[i].Swap(nil); p != nil {
			*p = wordPage{}
			wordPages.Put(p)
		}
	}
}

// firstWord returns the word of a cell after access a of the block whose
// owner field is owner, the first access of the launch to the cell: what
// betweenBlocks returns for the word 0, with no conflict.
func firstWord(owner uint32, a *access) uint32 {
	v := owner | kindBit(a.kind)<<ownerShift
	if a.kind == writeAccess && !a.sameValue {
		v |= mixedBit
	}
	return v
}

// betweenBlocks checks access a of the block whose owner field is owner
// against the other blocks' accesses that word v records, and returns the
// word with a recorded. old is the cell's value before a (for a write).
func betweenBlocks(v uint32, owner uint32, a *access, old uint64) (uint32, conflict, bool) {
	bit := kindBit(a.kind)
	before := (v>>ownerShift | v>>othersShift) & kindMask // by any block
	var others uint32
	switch first := v & ownerMask; {
	case first == 0:
		v |= owner | bit<<ownerShift
	case first == owner:
		others = v >> othersShift & kindMask
		v |= bit << ownerShift
	default:
		// The other blocks' kinds include this block's own earlier
		// accesses, but those make no conflict that the owner's kinds do
		// not make too, unless the cell already saw a race.
		others = before
		v |= bit << othersShift
	}
	if a.kind != writeAccess {
		if others&kindBit(writeAccess) != 0 {
			return v, conflict{kind: writeAccess, otherBlocks: true}, true
		}
		return v, conflict{}, false
	}
	sameAsBefore := a.sameValue && v&mixedBit == 0 && old == a.value
	if !a.sameValue || before&kindBit(writeAccess) != 0 && old != a.value {
		v |= mixedBit
	}
	switch {
	case others&kindBit(writeAccess) != 0 && !sameAsBefore:
		return v, conflict{kind: writeAccess, otherBlocks: true}, true
	case others&kindBit(readAccess) != 0:
		return v, conflict{kind: readAccess, otherBlocks: true}, true
	case others&kindBit(atomicAccess) != 0:
		return v, conflict{kind: atomicAccess, otherBlocks: true}, true
	}
	return v, conflict{}, false
}
