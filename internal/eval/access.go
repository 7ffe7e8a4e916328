package eval

import (
	"encoding/binary"
	"math/bits"

	"github.com/obsidian-go/obsidian/ir"
)

// Accesses to memory are made for the active lanes of a warp at once, lane
// after lane: each lane's index is checked, its access made and then
// checked for races, so that the problems are found in the order a
// statement makes them.

// accessWhat names, in a report of an access out of bounds, what an
// access of each kind does.
var accessWhat = [...]string{readAccess: "read of", writeAccess: "write to", atomicAccess: "atomic on"}

// laneIndexes is what the accesses of a warp to one memory share: the
// shift that sign-extends the index type, the memory's length, and where
// each lane's copy of the memory starts (see machine.copies).
type laneIndexes struct {
	shift        uint8
	n            uint64
	base, stride int
}

// indexes returns the laneIndexes of the current warp's accesses to mem
// with indexes of type t.
func (m *machine) indexes(mem *memory, t ir.Type) laneIndexes {
	base, stride := m.copies(mem)
	return laneIndexes{shift: extendShifts[t] & 63, n: uint64(mem.n), base: base, stride: stride}
}

// element returns the element of mem's data (in lane l's copy) that lane
// l reaches with its index in idx, and whether the index lies in mem. A
// negative index (or an unsigned one of 2^63 or more) is a large unsigned
// number.
func (x *laneIndexes) element(idx *vec, l int) (int, bool) {
	s := x.shift & 63
	i := uint64(int64(idx[l]<<s) >> s)
	return x.base + l*x.stride + int(i), i < x.n
}

// warpAccess returns what the accesses of one statement to mem by the
// current warp have in common; the thread (and value) are each lane's.
func (m *machine) warpAccess(mem *memory, kind accessKind, sameValue bool, site int32) access {
	w := m.warpBase / warpSize
	return access{kind: kind, sameValue: sameValue, mem: mem.slot, body: m.body, warp: int16(w),
		blockEpoch: m.blockEpoch, warpEpoch: m.warpEpoch[w], site: site}
}

// loadLanes replaces the index (of type t) in out of every active lane by
// the element of mem it reads.
func (m *machine) loadLanes(mem *memory, t ir.Type, out *vec, pos ir.Pos, site int32) {
	x := m.indexes(mem, t)
	r := mem.region
	switch {
	case r != nil && r.shadow != nil:
		m.globalLanes(mem, t, &x, out, nil, readAccess, false, pos, site)
	case r != nil && r.shared:
		m.loadShared(mem, t, &x, out, pos, site)
	case mem.stamps != nil:
		m.loadLocal(mem, t, &x, out, pos)
	case mem.elem == 4:
		data := mem.data
		for mask := m.mask; mask != 0; mask &= mask - 1 {
			l := bits.TrailingZeros32(mask)
			i, ok := x.element(out, l)
			if !ok {
				m.outOfBounds(mem, t, out[l], pos, accessWhat[readAccess])
				return
			}
			out[l] = uint64(binary.LittleEndian.Uint32(data[4*i : 4*i+4]))
		}
	default:
		for mask := m.mask; mask != 0; mask &= mask - 1 {
			l := bits.TrailingZeros32(mask)
			i, ok := x.element(out, l)
			if !ok {
				m.outOfBounds(mem, t, out[l], pos, accessWhat[readAccess])
				return
			}
			out[l] = loadBits(mem.data, mem.elem, i)
		}
	}
}

// quickAccesses lets the accesses that race with nothing (the first of a
// barrier interval to a cell of shared memory, see cellRecord.firstRead,
// or of the launch to a cell of global memory) be recorded in a loop
// without calls, which keeps its state in registers; tests turn it off to
// compare with the general checks.
var quickAccesses = true

// quickCells returns the records of the elements of shared memory mem, in
// the order of its data, when each element is one cell and the records
// lie in one slice (for the loops of loadShared and storeShared), else
// nil.
func quickCells(mem *memory) []cellRecord {
	if flat := mem.region.records.flat; quickAccesses && mem.cells == 1 && flat != nil {
		return flat[mem.cell:]
	}
	return nil
}

// loadShared is loadLanes for shared memory.
func (m *machine) loadShared(mem *memory, t ir.Type, x *laneIndexes, out *vec, pos ir.Pos, site int32) {
	a := m.warpAccess(mem, readAccess, false, site)
	records, data, elem, warpBase := mem.region.records, mem.data, mem.elem, m.warpBase
	cells := quickCells(mem)
	for mask := m.mask; mask != 0; mask &= mask - 1 {
		// The lanes whose reads are recorded without a call.
		for ; mask != 0; mask &= mask - 1 {
			l := bits.TrailingZeros32(mask)
			i, ok := x.element(out, l)
			if !ok || uint(i) >= uint(len(cells)) {
				break
			}
			a.thread = int16(warpBase + l)
			if !cells[i].firstRead(&a) {
				break
			}
			out[l] = loadBits(data, elem, i)
		}
		if mask == 0 {
			return
		}
		l := bits.TrailingZeros32(mask)
		i, ok := x.element(out, l)
		if !ok {
			m.outOfBounds(mem, t, out[l], pos, accessWhat[readAccess])
			return
		}
		out[l] = loadBits(data, elem, i)
		a.thread = int16(warpBase + l)
		if mem.cells == 1 {
			if s := records.at(mem.cell + i); s.firstRead(&a) {
				continue
			} else if s.body == a.body && s.flags&written != 0 && s.writer == a.mem &&
				s.epoch == a.blockEpoch && s.sets[writeAccess].who == 0 {
				s.sets[readAccess].add(&a) // reads race with writes only
				continue
			}
		}
		m.sharedAccess(mem, i, &a)
	}
}

// storeLanes writes the value in val of every active lane to the element
// of mem its index (of type t) in idx names.
func (m *machine) storeLanes(mem *memory, t ir.Type, idx, val *vec, sameValue bool, pos ir.Pos, site int32) {
	if m.stop {
		return
	}
	x := m.indexes(mem, t)
	switch r := mem.region; {
	case r == nil:
		m.storeLocal(mem, t, &x, idx, val, pos)
	case !r.shared:
		m.globalLanes(mem, t, &x, idx, val, writeAccess, sameValue, pos, site)
	default:
		m.storeShared(mem, t, &x, idx, val, sameValue, pos, site, 0)
	}
}

// copyAsyncLanes writes, as an asynchronous copy, the value in val of
// every active lane to the element of mem, a shared memory, at the index
// in idx.
//
// The copy lands at once here, but its writes are recorded as those of a
// copier of each thread (thread asyncCopier + t of warp asyncCopier/32 +
// w), which no warp synchronization orders with any thread: only the
// block's next barrier does, as on the GPU, where the barrier waits for
// the copy. So any other access to the element in the barrier interval,
// by the copying thread too, is reported as a race.
func (m *machine) copyAsyncLanes(mem *memory, t ir.Type, idx, val *vec, pos ir.Pos, site int32) {
	if m.stop {
		return
	}
	x := m.indexes(mem, t)
	m.storeShared(mem, t, &x, idx, val, false, pos, site, asyncCopier)
}

// asyncCopier is what an asynchronous copy's writes add to the number of
// the thread that makes it (see copyAsyncLanes): a multiple of the warp
// size, so that its warp too is apart from every thread's.
const asyncCopier = maxThreadsPerBlk

// storeShared is storeLanes for shared memory, its writes recorded as
// those of thread copier + t for thread t (copier is 0, or asyncCopier
// for an asynchronous copy).
func (m *machine) storeShared(mem *memory, t ir.Type, x *laneIndexes, idx, val *vec, sameValue bool, pos ir.Pos, site int32,
	copier int) {
	a := m.warpAccess(mem, writeAccess, sameValue, site)
	a.warp += int16(copier / warpSize)
	records, data, elem, warpBase := mem.region.records, mem.data, mem.elem, m.warpBase+copier
	cells := quickCells(mem)
	for mask := m.mask; mask != 0 && !m.stop; mask &= mask - 1 {
		// The lanes whose writes are recorded without a call.
	quick:
		for ; mask != 0; mask &= mask - 1 {
			l := bits.TrailingZeros32(mask)
			i, ok := x.element(idx, l)
			if !ok || uint(i) >= uint(len(cells)) {
				break
			}
			a.thread, a.value = int16(warpBase+l), val[l]
			switch s := &cells[i]; {
			case s.firstWrite(&a):
			case s.ownCell(&a):
				s.noteOwnWrite(&a)
			default:
				break quick
			}
			storeBits(data, elem, i, val[l])
		}
		if mask == 0 {
			return
		}
		l := bits.TrailingZeros32(mask)
		i, ok := x.element(idx, l)
		if !ok {
			m.outOfBounds(mem, t, idx[l], pos, accessWhat[writeAccess])
			return
		}
		a.thread, a.value = int16(warpBase+l), val[l]
		storeBits(data, elem, i, val[l])
		if mem.cells == 1 {
			if s := records.at(mem.cell + i); s.firstWrite(&a) {
				continue
			} else if s.body == a.body && s.epoch == a.blockEpoch && s.alone(&a) {
				s.note(&a)
				continue
			}
		}
		m.sharedAccess(mem, i, &a)
	}
}

// loadLocal is loadLanes for a local array: a thread's read of an element
// it has not written in the current block body (a Held array) or in the
// current iteration of the ForAll that runs it (another local array) reads
// what an earlier block or iteration (or nothing) left there, and is
// reported.
func (m *machine) loadLocal(mem *memory, t ir.Type, x *laneIndexes, out *vec, pos ir.Pos) {
	stamp := m.stamp(mem)
	for mask := m.mask; mask != 0; mask &= mask - 1 {
		l := bits.TrailingZeros32(mask)
		i, ok := x.element(out, l)
		if !ok {
			m.outOfBounds(mem, t, out[l], pos, accessWhat[readAccess])
			return
		}
		if mem.stamps[i] != stamp {
			m.reportUnwrittenLocal(mem, i, l, pos)
		}
		out[l] = loadBits(mem.data, mem.elem, i)
	}
}

// reportUnwrittenLocal reports lane l's read of element i of local array
// mem's data, which its thread has not written.
func (m *machine) reportUnwrittenLocal(mem *memory, i, l int, pos ir.Pos) {
	thread := m.warpBase + l
	if mem.array.Held {
		m.report(false, pos, "uninit", "read of held array %s[%d] by thread %d of block %d, which has not "+
			"written it in this block body", mem.array.Name, i-thread*mem.n, thread, m.block)
		return
	}
	m.report(false, pos, "uninit", "read of local array %s[%d] by thread %d of block %d, which has not "+
		"written it in this iteration of its ForAll", mem.array.Name, i-thread*mem.n, thread, m.block)
}

// storeLocal is storeLanes for a memory no other thread sees.
func (m *machine) storeLocal(mem *memory, t ir.Type, x *laneIndexes, idx, val *vec, pos ir.Pos) {
	if mem.stamps != nil {
		stamp := m.stamp(mem)
		for mask := m.mask; mask != 0; mask &= mask - 1 {
			l := bits.TrailingZeros32(mask)
			if i, ok := x.element(idx, l); ok {
				mem.stamps[i] = stamp
			}
		}
	}
	if mem.elem == 4 {
		data := mem.data
		for mask := m.mask; mask != 0; mask &= mask - 1 {
			l := bits.TrailingZeros32(mask)
			i, ok := x.element(idx, l)
			if !ok {
				m.outOfBounds(mem, t, idx[l], pos, accessWhat[writeAccess])
				return
			}
			binary.LittleEndian.PutUint32(data[4*i:4*i+4], uint32(val[l]))
		}
		return
	}
	for mask := m.mask; mask != 0; mask &= mask - 1 {
		l := bits.TrailingZeros32(mask)
		i, ok := x.element(idx, l)
		if !ok {
			m.outOfBounds(mem, t, idx[l], pos, accessWhat[writeAccess])
			return
		}
		storeBits(mem.data, mem.elem, i, val[l])
	}
}

// atomicLanes applies fn, with the operand in val and comparand in cmp, to
// the element of mem the index (of type t) in idx names, for every active
// lane; it leaves the elements' old values in old and returns the lanes
// that made their access.
func (m *machine) atomicLanes(mem *memory, t ir.Type, idx, val, cmp, old *vec, fn atomicFn, pos ir.Pos, site int32) uint32 {
	x := m.indexes(mem, t)
	a := m.warpAccess(mem, atomicAccess, false, site)
	var h heldLock
	defer h.free()
	done, changed := uint32(0), false
	if r := mem.region; r != nil && !r.shared {
		m.touchGlobal(mem, &x, idx)
	}
	for mask := m.mask; mask != 0 && !m.stop; mask &= mask - 1 {
		l := bits.TrailingZeros32(mask)
		i, ok := x.element(idx, l)
		if !ok {
			m.outOfBounds(mem, t, idx[l], pos, accessWhat[atomicAccess])
			break
		}
		a.thread = int16(m.warpBase + l)
		if r := mem.region; r == nil || r.shared {
			old[l] = loadBits(mem.data, mem.elem, i)
			storeBits(mem.data, mem.elem, i, fn(old[l], val[l], cmp[l]))
			if r != nil {
				m.sharedAccess(mem, i, &a)
			}
		} else {
			old[l] = m.global(&h, mem, i, &a, fn, val[l], cmp[l])
			changed = changed || fn(old[l], val[l], cmp[l]) != old[l]
		}
		done |= 1 << l
	}
	if changed {
		m.changedGlobal()
	}
	return done
}

// globalLanes makes the reads (kind readAccess: idx gets the elements
// read) or plain writes (of the values in val) of the active lanes to
// global memory mem, which some statement of the launch writes.
func (m *machine) globalLanes(mem *memory, t ir.Type, x *laneIndexes, idx, val *vec, kind accessKind, sameValue bool, pos ir.Pos, site int32) {
	a := m.warpAccess(mem, kind, sameValue, site)
	var h heldLock
	defer h.free()
	write := kind == writeAccess
	r, data, elem, warpBase := mem.region, mem.data, mem.elem, m.warpBase
	owner := uint32(m.block-m.run.phase) + 1
	quick := quickAccesses && mem.cells == 1
	if !write {
		m.touchGlobal(mem, x, idx)
	}
	for mask := m.mask; mask != 0 && !(write && m.stop); mask &= mask - 1 {
		// The lanes that make the launch's first access to their cell,
		// in the group of cells whose lock h holds, without a call.
		for ; quick && mask != 0; mask &= mask - 1 {
			l := bits.TrailingZeros32(mask)
			i, ok := x.element(idx, l)
			if !ok {
				break
			}
			cell := mem.cell + i
			w, lock, ok := r.shadow.quickAt(cell)
			if !ok || lock != h.lock || *w != 0 {
				break
			}
			a.thread = int16(warpBase + l)
			if write {
				a.value = val[l]
			}
			if !m.intervals.quickFirst(r.base+uint64(cell), &a) {
				break
			}
			*w = firstWord(owner, &a)
			if write {
				storeBits(data, elem, i, val[l])
			} else {
				idx[l] = loadBits(data, elem, i)
			}
		}
		if mask == 0 {
			return
		}
		l := bits.TrailingZeros32(mask)
		i, ok := x.element(idx, l)
		if !ok {
			m.outOfBounds(mem, t, idx[l], pos, accessWhat[kind])
			return
		}
		a.thread = int16(warpBase + l)
		if write {
			a.value = val[l]
			m.global(&h, mem, i, &a, nil, 0, 0)
		} else {
			idx[l] = m.global(&h, mem, i, &a, nil, 0, 0)
		}
	}
}

// largeRegion is the number of cells from which a global region is taken
// to be larger than the caches: its words alone take a megabyte.
const largeRegion = 1 << 18

// touchGlobal reads, for the active lanes whose index in idx lies in mem,
// a global memory of a large region, the word of the element's first cell
// and its first byte, before the warp reads them or applies atomics to
// them: the processor fetches them from memory all at once, and the
// accesses, made one after the other, find them in the cache. (Not before
// plain writes: a read of a page never touched would map it for reading,
// and the write fault it again.) The values read are not used (they race
// with the writes of other workers, made under the cells' locks).
func (m *machine) touchGlobal(mem *memory, x *laneIndexes, idx *vec) {
	r := mem.region
	if !touchesGlobal || r.cells < largeRegion {
		return
	}
	var sum uint32
	for mask := m.mask; mask != 0; mask &= mask - 1 {
		l := bits.TrailingZeros32(mask)
		if i, ok := x.element(idx, l); ok {
			if w, _, ok := r.shadow.quickAt(mem.cell + i*mem.cells); ok {
				sum += *w
			}
			sum += uint32(mem.data[i*mem.elem])
		}
	}
	m.touched += sum
}

// global makes access a to element i of global memory mem, which some
// statement of the launch writes (an atomic applies fn to operand and
// compare), while h holds the lock of the element's cells, and checks it
// against the other blocks' accesses and the block's own. It returns the
// element's value before the access.
func (m *machine) global(h *heldLock, mem *memory, i int, a *access, fn atomicFn, operand, compare uint64) uint64 {
	if mem.cells > 1 {
		return m.globalWide(h, mem, i, a, fn, operand, compare)
	}
	r := mem.region
	cell := mem.cell + i
	w, l := r.shadow.at(cell)
	h.take(l)
	old := loadBits(mem.data, mem.elem, i)
	switch a.kind {
	case writeAccess:
		storeBits(mem.data, mem.elem, i, a.value)
	case atomicAccess:
		storeBits(mem.data, mem.elem, i, fn(old, operand, compare))
	}
	v := *w
	owner := uint32(m.block-m.run.phase) + 1
	if v == 0 {
		// The launch's first access to the cell: nothing to race with.
		*w = firstWord(owner, a)
		m.intervals.first(r.base+uint64(cell), a)
		return old
	}
	nv, c, race := betweenBlocks(v, owner, a, old)
	*w = nv
	if v&ownerMask == 0 {
		m.intervals.first(r.base+uint64(cell), a)
	} else if rec, fresh := m.intervals.lookUp(r.base + uint64(cell)); fresh {
		rec.first(a)
	} else if cb, raceInBlock := rec.record(a, false); raceInBlock && !race {
		c, race = cb, true
	}
	if race {
		m.reportRace(mem, i, cell, a, c)
	}
	return old
}

// globalWide is global for an element of several cells, which may lie in
// two groups: it takes their locks in order.
func (m *machine) globalWide(h *heldLock, mem *memory, i int, a *access, fn atomicFn, operand, compare uint64) uint64 {
	h.free()
	r := mem.region
	first := mem.cell + i*mem.cells
	// An element is at most 8 cells, so its cells lie in at most two
	// groups, taken in order.
	var words [8]*uint32
	var held [2]heldLock
	defer held[0].free()
	defer held[1].free()
	for k := range mem.cells {
		var l *uint32
		words[k], l = r.shadow.at(first + k)
		if held[0].lock == nil {
			held[0].take(l)
		} else if held[0].lock != l {
			held[1].take(l)
		}
	}
	old := loadBits(mem.data, mem.elem, i)
	switch a.kind {
	case writeAccess:
		storeBits(mem.data, mem.elem, i, a.value)
	case atomicAccess:
		storeBits(mem.data, mem.elem, i, fn(old, operand, compare))
	}
	var c conflict
	raceCell := -1
	for k := range mem.cells {
		v, ck, race := betweenBlocks(*words[k], uint32(m.block-m.run.phase)+1, a, old)
		*words[k] = v
		if race && raceCell < 0 {
			c, raceCell = ck, first+k
		}
	}
	held[0].free()
	held[1].free()
	for k := range mem.cells {
		rec, fresh := m.intervals.lookUp(r.base + uint64(first+k))
		if fresh {
			rec.first(a)
		} else if ck, race := rec.record(a, false); race && raceCell < 0 {
			c, raceCell = ck, first+k
		}
	}
	if raceCell >= 0 {
		m.reportRace(mem, i, raceCell, a, c)
	}
	return old
}

// sharedAccess checks access a to element i of shared memory mem, on each
// cell of the region the element covers, and reports a race or a read of
// shared memory that the block body never wrote through mem.
func (m *machine) sharedAccess(mem *memory, i int, a *access) {
	r := mem.region
	first := mem.cell + i*mem.cells
	for cell := first; cell < first+mem.cells; cell++ {
		s := r.records.at(cell)
		if a.kind != writeAccess && (s.body != a.body || s.flags&written == 0 || s.writer != mem.slot) {
			m.checkWritten(mem, i, s, a)
		}
		if s.body == a.body && s.epoch != a.blockEpoch {
			s.first(a) // nothing to race with
			continue
		}
		if c, race := s.record(a, true); race {
			m.reportRace(mem, i, cell, a, c)
			return
		}
	}
}
