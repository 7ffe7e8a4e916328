package eval

import (
	"math/bits"
	"slices"
	gosync "sync"
	"unsafe"
)

// intervalTable holds a worker's cellRecords of global memory for the
// current barrier interval of its block, keyed by the cell's index among
// the launch's global cells; entries of an earlier interval count as
// empty. A cell has its entry in a direct-mapped table (the cells a block
// touches are mostly near each other), or, when another cell of the
// interval holds that, in an open-addressing hash table. Both grow with the
// cells one interval touches, not with the arrays.
//
// The first access of any block to a cell needs no look-up: it is kept in
// a list, firsts, until the interval looks a cell up, which first moves
// the list into the tables. A block that writes each of its cells once
// never looks one up.
type intervalTable struct {
	epoch   uint32 // the interval of the live entries
	direct  []intervalEntry
	dmask   uint64
	live    int // live entries of others
	shift   uint
	others  []intervalEntry
	firsts  []firstAccess
	indexed bool // firsts are in the tables
}

// firstAccess is the first access of the launch to a cell.
type firstAccess struct {
	cell uint64
	a    access
}

type intervalEntry struct {
	key uint64
	rec cellRecord
}

const (
	directBits       = 12
	initialOtherBits = 6
	fibonacciHashing = 0x9e3779b97f4a7c15
)

// intervalTables keeps the full-size tables of finished launches for the
// next ones.
var intervalTables gosync.Pool

// directSize is the size of the direct-mapped table for a launch whose
// written global memory has cells cells.
func directSize(cells uint64) int {
	return 1 << min(directBits, bits.Len64(max(cells, 2)-1))
}

// intervalBytes is the size of a new table for a launch whose written
// global memory has cells cells.
func intervalBytes(cells uint64) int64 {
	return int64(directSize(cells)+1<<initialOtherBits) * int64(unsafe.Sizeof(intervalEntry{}))
}

// newIntervalTable returns an empty table for a launch whose written global
// memory has cells cells.
func newIntervalTable(cells uint64) *intervalTable {
	size := directSize(cells)
	t, _ := intervalTables.Get().(*intervalTable)
	if t == nil || len(t.direct) != size {
		t = &intervalTable{direct: make([]intervalEntry, size)}
	}
	if len(t.others) != 1<<initialOtherBits {
		t.others = make([]intervalEntry, 1<<initialOtherBits)
	}
	t.shift, t.dmask = 64-initialOtherBits, uint64(size-1)
	t.reset()
	return t
}

// release gives a full-size table back for other launches.
func (t *intervalTable) release() {
	if len(t.direct) == 1<<directBits {
		intervalTables.Put(t)
	}
}

// enter makes epoch the current interval; entries of others are empty.
func (t *intervalTable) enter(epoch uint32) {
	if t.epoch != epoch {
		t.epoch, t.live, t.firsts, t.indexed = epoch, 0, t.firsts[:0], false
	}
}

// first records a, the first access of the launch to cell.
func (t *intervalTable) first(cell uint64, a *access) {
	if t.quickFirst(cell, a) {
		return
	}
	if t.indexed {
		rec, _ := t.at(cell)
		rec.first(a)
		return
	}
	// Doubled, not grown by a quarter as append grows large slices: an
	// interval may list millions of accesses.
	t.firsts = slices.Grow(t.firsts, max(cap(t.firsts), 1<<8))
	t.quickFirst(cell, a)
}

// quickFirst is first when that needs no call: it reports whether it
// recorded a (when the list has room).
func (t *intervalTable) quickFirst(cell uint64, a *access) bool {
	n := len(t.firsts)
	if t.indexed || n == cap(t.firsts) {
		return false
	}
	t.firsts = t.firsts[:n+1]
	t.firsts[n] = firstAccess{cell, *a}
	return true
}

// lookUp returns the record of cell in the current interval, as at does,
// after moving the first accesses into the tables.
func (t *intervalTable) lookUp(cell uint64) (rec *cellRecord, fresh bool) {
	if !t.indexed {
		for i := range t.firsts {
			r, _ := t.at(t.firsts[i].cell)
			r.first(&t.firsts[i].a)
		}
		t.firsts, t.indexed = t.firsts[:0], true
	}
	return t.at(cell)
}

// reset forgets every entry, for when the epoch counter wraps around.
func (t *intervalTable) reset() {
	clear(t.direct)
	clear(t.others)
	t.live, t.firsts, t.indexed = 0, t.firsts[:0], false
}

// at returns the record of cell in the current interval, and fresh true
// when the interval has not touched the cell (the record then holds
// nothing of this interval: cellRecord.first fills it).
func (t *intervalTable) at(cell uint64) (rec *cellRecord, fresh bool) {
	e := &t.direct[cell&t.dmask]
	switch {
	case e.rec.epoch != t.epoch:
		e.key = cell
		return &e.rec, true
	case e.key == cell:
		return &e.rec, false
	}
	return t.other(cell)
}

// other finds or adds the entry of cell in the hash table.
func (t *intervalTable) other(cell uint64) (rec *cellRecord, fresh bool) {
	mask := uint64(len(t.others) - 1)
	for i := (cell * fibonacciHashing) >> t.shift; ; i = (i + 1) & mask {
		e := &t.others[i]
		switch {
		case e.rec.epoch != t.epoch:
			if t.live >= len(t.others)/2 {
				t.grow()
				return t.other(cell)
			}
			t.live++
			e.key, e.rec.epoch = cell, t.epoch
			return &e.rec, true
		case e.key == cell:
			return &e.rec, false
		}
	}
}

// grow doubles the hash table, keeping the live entries.
func (t *intervalTable) grow() {
	old := t.others
	t.others = make([]intervalEntry, 2*len(old))
	t.shift--
	mask := uint64(len(t.others) - 1)
	for _, e := range old {
		if e.rec.epoch != t.epoch {
			continue
		}
		i := (e.key * fibonacciHashing) >> t.shift
		for t.others[i].rec.epoch == t.epoch {
			i = (i + 1) & mask
		}
		t.others[i] = e
	}
}
