package eval

import (
	"cmp"
	"slices"
	"strings"
	"unsafe"

	"github.com/obsidian-go/obsidian/ir"
)

// Memory is checked by byte address, not by array element, so that two
// arrays that share bytes are checked against each other.
//
// Global memory. The array arguments of a launch are Buffers whose Data may
// be views of one allocation (the runtime's CPU device passes sub-slices of
// one buffer for views), so two parameters may alias. Arguments whose bytes
// overlap form one region, and races are detected on the region's bytes: an
// access through one parameter races with an access through another exactly
// when both touch the same bytes in one barrier interval (or in two blocks)
// and one of them writes. This reports only accesses that really conflict,
// naming both parameters; an in-place launch, where each thread reads its
// own element through one parameter and writes it through another, is
// correct on the GPU (the printed parameters are not restrict) and passes.
// Rejecting overlapping arguments up front would refuse it.
//
// Shared memory. A block's shared memory is the kernel's SharedBytes bytes,
// each shared array at the Offset codegen's layout gave it, so that arrays
// the layout places at the same bytes are checked against each other: an
// access to one races with a conflicting access to the other, and a read of
// bytes last written through the other array is reported, as a read of
// bytes never written is. A layout that overlaps two arrays in use at once
// does not go unnoticed. A kernel that was not laid out (SharedBytes 0)
// gets its shared arrays one after another. Shared memory holds nothing
// from one block to the next, nor from one block body (one virtual block of
// a GridBlocks ForAll) to the next: on the GPU another block may run it.
//
// The race state of a region is kept per cell of grain bytes, the largest
// power of two that divides the element size and start of every array in
// the region, so that every access covers whole cells.

// maxSharedBytes bounds the shared memory of a block in the evaluator: far
// more than any GPU has, little enough to allocate.
const maxSharedBytes = 64 << 20

// maxLocalBytes bounds the local arrays of a block's threads together, as
// maxSharedBytes does shared memory.
const maxLocalBytes = 64 << 20

// Constant tables. A constant table's memory holds its values, which no
// statement writes (the compiler rejects one that would): it has no region
// and nothing to race with, and the workers of a launch share it.
//
// tableMemory returns the memory of constant table a of slot, holding
// its values.
func tableMemory(a *ir.Array, slot int) *memory {
	mem := &memory{array: a, slot: int16(slot), elem: a.Elem.Size(), n: a.Size}
	mem.data = make([]byte, a.Size*mem.elem)
	for i, v := range a.Values {
		storeBits(mem.data, mem.elem, i, v.Bits)
	}
	return mem
}

// Local memory. A local array has a copy per thread of the block, one
// after another in its memory's data, and no region: no other thread sees
// it, so there is nothing to race with.
//
// Per-warp shared memory. A PerWarp shared array takes Size elements per
// warp of the block, one region after another from its offset; an access
// at index i (checked against Size) reaches element i of the accessing
// warp's region, so that no warp reaches another's.

// region is bytes that one or more memories lie in.
type region struct {
	members []*memory
	shared  bool
	cells   int
	// Global memory: the words of the cells (see words.go), nil when
	// nothing in the region is ever written (then its cells are only read
	// and need no checks), and the index of the region's first cell among
	// the launch's global cells.
	shadow *blockWords
	base   uint64
	// Shared memory: the records of the cells, of one block.
	records *recordMemory
}

// names lists the arrays of the region.
func (r *region) names() string {
	var names []string
	for _, mem := range r.members {
		names = append(names, mem.array.Name)
	}
	return strings.Join(names, ", ")
}

// sameBytes says, for a report, why two arrays of r share bytes.
func (r *region) sameBytes() string {
	if r.shared {
		return "are placed at the same bytes of shared memory by the kernel's layout"
	}
	return "are arguments whose memory overlaps"
}

// place makes a region of the memories, at byte offsets start (from the
// region's start) of a region of size bytes, with race state when some
// memory is written (always, for shared memory, whose reads are checked).
func place(mems []*memory, start []int, size int, shared bool, written []bool) *region {
	r := &region{members: mems, shared: shared}
	grain := 8
	for i, mem := range mems {
		for mem.elem%grain != 0 || start[i]%grain != 0 {
			grain /= 2
		}
	}
	track := false
	for i, mem := range mems {
		mem.region, mem.cell, mem.cells = r, start[i]/grain, mem.elem/grain
		track = track || written[mem.slot]
	}
	r.cells = (size + grain - 1) / grain
	switch {
	case shared:
		r.records = newRecordMemory(r.cells)
	case track:
		r.shadow = newBlockWords(r.cells)
	}
	return r
}

// address returns the address of the first byte of data.
func address(data []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(data))) }

// groupGlobals puts the global memories into regions: memories whose bytes
// overlap share one. An empty memory is never accessed and has none.
func (m *machine) groupGlobals(mems []*memory) {
	var sorted []*memory
	for _, mem := range mems {
		if len(mem.data) > 0 {
			sorted = append(sorted, mem)
		}
	}
	slices.SortFunc(sorted, func(a, b *memory) int { return cmp.Compare(address(a.data), address(b.data)) })
	for len(sorted) > 0 {
		base := address(sorted[0].data)
		end, n := base+uintptr(len(sorted[0].data)), 1
		for ; n < len(sorted) && address(sorted[n].data) < end; n++ {
			end = max(end, address(sorted[n].data)+uintptr(len(sorted[n].data)))
		}
		group := sorted[:n]
		start := make([]int, n)
		for i, mem := range group {
			start[i] = int(address(mem.data) - base)
		}
		r := place(group, start, int(end-base), false, m.prog.written)
		if r.shadow != nil {
			r.base = m.globalCells
			m.globalCells += uint64(r.cells)
			m.tracked = append(m.tracked, r)
		}
		sorted = sorted[n:]
	}
}

// layoutShared places the shared memories in the block's shared memory:
// at their offsets when the kernel is laid out, else one after another.
func (m *machine) layoutShared(mems []*memory) error {
	if len(mems) == 0 {
		return nil
	}
	k := m.prog.kernel
	start := make([]int, len(mems))
	size := k.SharedBytes
	laidOut := size > 0
	next := 0
	for i, mem := range mems {
		a := mem.array
		copies := a.Copies(m.threads)
		if a.Size < 0 || a.Size > maxSharedBytes/mem.elem/copies {
			return ir.Errorf(a.Pos, "shared array %s of %d elements of %v (%d copies): the evaluator allows %d "+
				"bytes of shared memory", a.Name, a.Size, a.Elem, copies, maxSharedBytes)
		}
		bytes := a.Size * copies * mem.elem
		if !laidOut {
			start[i] = next
			next = (next + bytes + 15) &^ 15
			if next > maxSharedBytes {
				return ir.Errorf(a.Pos, "the shared arrays of kernel %s need more than the %d bytes the evaluator "+
					"allows", k.Name, maxSharedBytes)
			}
			continue
		}
		switch {
		case a.Offset < 0 || a.Offset > size || bytes > size-a.Offset:
			return ir.Errorf(a.Pos, "shared array %s is placed at bytes [%d, %d), outside the kernel's %d bytes of "+
				"shared memory", a.Name, a.Offset, a.Offset+bytes, size)
		case a.Offset%mem.elem != 0:
			return ir.Errorf(a.Pos, "shared array %s is placed at byte %d, not a multiple of its %d-byte elements",
				a.Name, a.Offset, mem.elem)
		}
		start[i] = a.Offset
	}
	if !laidOut {
		size = next
	}
	if size > maxSharedBytes {
		return ir.Errorf(k.Pos, "kernel %s has %d bytes of shared memory; the evaluator allows %d", k.Name, size,
			maxSharedBytes)
	}
	m.smem = make([]byte, size)
	for i, mem := range mems {
		mem.data = m.smem[start[i] : start[i]+mem.n*mem.array.Copies(m.threads)*mem.elem]
	}
	m.shared = []*region{place(mems, start, size, true, m.prog.written)}
	return nil
}
