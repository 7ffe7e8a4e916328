package sorts_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// The papers' fuzz target's Sorter, on a CPU device with a memory limit
// that keeps every execution cheap.
var papersFuzz struct {
	once sync.Once
	dev  runtime.Device
	s    *sorts.Sorter
	err  error
}

const papersFuzzMaxKeys = 64

// papersFuzzOps are the sorts FuzzPapersSorts calls, by number.
var papersFuzzOps = []string{"HPSort", "HPSortDistinct", "HPSortFew", "CountSortPairs", "NotesRadixSort"}

// FuzzPapersSorts calls one of the papers' sorts on fuzzed keys (up to 64),
// any range [lo, lo+span) (wrapping: empty, inverted and huge ones
// included) and any digit width, on the CPU device. A valid call must
// return what plain Go computes; an invalid one the error its fault calls
// for (a range too wide for the device may be ErrTooLarge); no call may
// panic or hang.
func FuzzPapersSorts(f *testing.F) {
	word := func(ks ...uint32) []byte {
		b := make([]byte, 4*len(ks))
		for i, k := range ks {
			binary.LittleEndian.PutUint32(b[4*i:], k)
		}
		return b
	}
	f.Add(uint8(0), word(3, 1, 2, 3), uint32(0), uint32(16), int8(0))
	f.Add(uint8(1), word(9, 2, 0, 4), uint32(0), uint32(10), int8(0))
	f.Add(uint8(1), word(9, 2, 9), uint32(0), uint32(10), int8(0))
	f.Add(uint8(2), word(7, 7, 100, 7), uint32(5), uint32(4000), int8(0))
	f.Add(uint8(3), word(5, 5, 6, 5), uint32(5), uint32(2), int8(0))
	f.Add(uint8(0), word(math.MaxUint32), uint32(math.MaxUint32-3), uint32(3), int8(0))
	f.Add(uint8(2), word(1), uint32(10), uint32(0), int8(0))
	f.Add(uint8(4), word(1<<31, 3, math.MaxUint32, 0), uint32(0), uint32(0), int8(4))
	f.Add(uint8(4), word(8, 3), uint32(0), uint32(0), int8(3))
	f.Fuzz(func(t *testing.T, op uint8, raw []byte, lo, span uint32, digitBits int8) {
		papersFuzz.once.Do(func() {
			papersFuzz.dev = runtime.CPU(runtime.CPUMemoryLimit(4 << 20))
			papersFuzz.s, papersFuzz.err = sorts.New(papersFuzz.dev)
		})
		if papersFuzz.err != nil {
			t.Fatal(papersFuzz.err)
		}
		keys := make([]uint32, min(len(raw)/4, papersFuzzMaxKeys))
		for i := range keys {
			keys[i] = binary.LittleEndian.Uint32(raw[4*i:])
		}
		name := papersFuzzOps[int(op)%len(papersFuzzOps)]
		hi := lo + span
		what := fmt.Sprintf("%s of %v over [%d, %d), %d-bit digits", name, keys, lo, hi, digitBits)
		got, err := papersFuzzCall(t, name, keys, lo, hi, int(digitBits))
		want, wantErr := papersFuzzWant(name, keys, lo, hi, int(digitBits))
		switch {
		case wantErr != nil && !errors.Is(err, wantErr):
			if !(errors.Is(err, sorts.ErrTooLarge) && uint64(span) > 1<<12) {
				t.Fatalf("%s: error %v, want %v", what, err, wantErr)
			}
		case wantErr == nil && err != nil:
			if !errors.Is(err, sorts.ErrTooLarge) || uint64(span) <= 1<<12 {
				t.Fatalf("%s: %v", what, err)
			}
		case wantErr == nil && !slices.Equal(got, want):
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	})
}

// papersFuzzCall runs a sort and returns its sorted keys (and, for pairs,
// checks that every value stays with its key: the values are the keys'
// complements).
func papersFuzzCall(t *testing.T, name string, keys []uint32, lo, hi uint32, digitBits int) ([]uint32, error) {
	dev, s := papersFuzz.dev, papersFuzz.s
	if name != "CountSortPairs" {
		return onBuffers(dev, keys, func(out, in *runtime.Buffer[uint32]) error {
			switch name {
			case "HPSort":
				return s.HPSort(out, in, lo, hi)
			case "HPSortDistinct":
				return s.HPSortDistinct(out, in, lo, hi)
			case "HPSortFew":
				return s.HPSortFew(out, in, lo, hi)
			case "NotesRadixSort":
				return s.NotesRadixSort(out, in, digitBits)
			}
			t.Fatalf("unknown sort %s", name)
			return nil
		})
	}
	vals := make([]uint32, len(keys))
	for i, k := range keys {
		vals[i] = ^k
	}
	pairs, err := countSortPairs(dev, s, keys, vals, lo, hi)
	if err != nil {
		return nil, err
	}
	sorted := make([]uint32, len(pairs))
	for i, p := range pairs {
		if p.val != ^p.key {
			t.Fatalf("CountSortPairs of %v: the pair (%d, %d) is not one of the input's", keys, p.key, p.val)
		}
		sorted[i] = p.key
	}
	return sorted, nil
}

// papersFuzzWant returns what a sort must return: the sorted keys, or the
// error of its first fault.
func papersFuzzWant(name string, keys []uint32, lo, hi uint32, digitBits int) ([]uint32, error) {
	sorted := slices.Sorted(slices.Values(keys))
	if name == "NotesRadixSort" {
		if !slices.Contains(sorts.NotesDigitBits, digitBits) {
			return nil, sorts.ErrBadDigitBits
		}
		return sorted, nil
	}
	if hi <= lo || uint64(hi-lo) > sorts.MaxBins {
		return nil, sorts.ErrBadRange
	}
	for _, k := range keys {
		if k < lo || k >= hi {
			return nil, sorts.ErrKeyOutOfRange
		}
	}
	if name == "HPSortDistinct" && len(slices.Compact(slices.Clone(sorted))) != len(sorted) {
		return nil, sorts.ErrNotDistinct
	}
	return sorted, nil
}
