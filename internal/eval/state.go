package eval

import (
	goruntime "runtime"
	"unsafe"

	"github.com/obsidian-go/obsidian/ir"
)

// StateBytes estimates what a launch of k holds besides its buffers
// while workers of its blocks run at once (Workers, or Config.Workers),
// given the lengths of the array arguments (in the order of k.Params; the
// entries of scalar parameters are not used): a 4-byte word per element
// of every array argument the kernel may write (per byte of a bool
// array), and for each of the blocks that run at once the state of a
// block: its shared memory with a record of every cell, and a table of
// the global cells one barrier interval touches, which grows past its
// initial size only for an interval that touches more than a few thousand
// cells (then by about 40 to 130 bytes per cell it touches: a launch of
// one block looping over a whole array without a barrier holds that much
// per element until it ends).
func StateBytes(k *ir.Kernel, lengths []int, workers int) int64 {
	var words, cells int64
	for i, p := range k.Params {
		if p.Array != nil && p.Array.Access != ir.Input && i < len(lengths) {
			words += wordsBytes(int64(lengths[i]))
			cells += int64(lengths[i])
		}
	}
	var perBlock int64
	if cells > 0 {
		perBlock = intervalBytes(uint64(cells))
	}
	for _, a := range k.Shared {
		perBlock += int64(a.Size) * (int64(a.Elem.Size()) + int64(unsafe.Sizeof(cellRecord{})))
	}
	return words + int64(workers)*perBlock
}

// Workers is the number of blocks of a launch of blocks blocks that run at
// once unless Config.Workers caps it: as many as GOMAXPROCS.
func Workers(blocks int) int {
	return min(goruntime.GOMAXPROCS(0), max(blocks, 1))
}
