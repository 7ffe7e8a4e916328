package sorts

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// ErrBadDigitBits: NotesRadixSort was given a digit width it does not take.
var ErrBadDigitBits = errors.New("bad digit width")

// NotesDigitBits are the digit widths NotesRadixSort takes.
var NotesDigitBits = []int{1, 2, 4}

// NotesRadixSort writes the keys, sorted, to out (of the same length as
// keys, possibly keys itself) by the LSD radix sort of the radix sort
// notes, digitBits bits at a time (1, 2 or 4; another width is an error
// wrapping ErrBadDigitBits). Every pass sorts each tile of
// kernels.NotesRadixTile keys locally by the pass's digit, with a 0/1 mask
// and a Blelloch scan per digit value (arrays.BlellochScan), scans the
// tiles' digit counts, and scatters every tile's runs of equal digits to
// their places, in coalesced runs. It runs as many passes as the largest
// key has digits (found first, by a reduction), at least one; the passes
// are stable, so the sort is. It takes any uint32 keys, and 4 bytes of
// scratch per key and a few words per tile.
//
// It is the notes' algorithm as they write it, for reading and measuring:
// it is not the library's fastest sort.
func (s *Sorter) NotesRadixSort(out, keys *runtime.Buffer[uint32], digitBits int) error {
	_, err := s.locked(func() (int, error) {
		if !slices.Contains(NotesDigitBits, digitBits) {
			return 0, fmt.Errorf("sorts: %w: NotesRadixSort with digitBits %d: want one of %v", ErrBadDigitBits, digitBits, NotesDigitBits)
		}
		if err := s.checkSortBuffers(out, keys); err != nil {
			return 0, err
		}
		return 0, s.notesRadixSort(out, keys, digitBits)
	})
	return err
}

// notesRadixSort is NotesRadixSort on checked arguments.
func (s *Sorter) notesRadixSort(out, keys *runtime.Buffer[uint32], digitBits int) error {
	n := keys.Len()
	if n == 0 {
		return nil
	}
	tiles := ceilDiv(n, kernels.NotesRadixTile)
	cells := tiles << digitBits // a count per digit value and tile
	needs := []need{{&s.sc.tiles, n}, {&s.sc.hist, cells}, {&s.sc.pos, cells + 1}, {&s.sc.tileOffsets, cells}, {&s.sc.minmax, 2}}
	needs = append(needs, s.scanNeeds(cells, false)...)
	if err := s.reserve(request{op: "notes' radix sort", keys: n, written: max(n, cells+1)}, needs...); err != nil {
		return err
	}
	if err := s.loadPapers(); err != nil {
		return err
	}
	_, hi, _, err := s.keyRange(keys)
	if err != nil {
		return err
	}
	sorted, err := take(s.sc.tiles, n)
	if err != nil {
		return err
	}
	counts, err := take(s.sc.hist, cells)
	if err != nil {
		return err
	}
	starts, err := take(s.sc.pos, cells+1)
	if err != nil {
		return err
	}
	offsets, err := take(s.sc.tileOffsets, cells)
	if err != nil {
		return err
	}
	passes := max(1, ceilDiv(bits.Len32(hi), digitBits))
	src := keys
	for pass := range passes {
		shift := uint32(pass * digitBits)
		if err := s.launch(s.papers.radixLocal, src, shift, uint32(digitBits), sorted, counts, offsets); err != nil {
			return err
		}
		if err := s.exclusiveScan(starts, counts, false); err != nil {
			return err
		}
		if err := s.launch(s.papers.radixScatter, sorted, shift, uint32(digitBits), starts.View(0, cells), offsets, out); err != nil {
			return err
		}
		src = out
	}
	return nil
}
