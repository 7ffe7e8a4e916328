package sorts_test

import (
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// The papers' sorts' rows of the bad-input catalogue (TestBadInputCatalogue).
func init() { badInputs = append(badInputs, papersBadInputs...) }

var papersBadInputs = []badInput{
	{"zero Sorter HPSort", func(f *badFixture) error {
		return (&sorts.Sorter{}).HPSort(f.zeros(2), f.buf(1, 0), 0, 2)
	}, sorts.ErrNoDevice, "", "not made by New"},
	{"closed Sorter HPSortFew", func(f *badFixture) error {
		return f.closedSorter.HPSortFew(f.zeros(1), f.buf(1), 0, 2)
	}, sorts.ErrClosed, "", "closed"},
	{"HPSort nil out", func(f *badFixture) error { return f.fast.HPSort(nil, f.buf(1), 0, 2) }, nil, "out", "nil buffer"},
	{"HPSortDistinct freed keys", func(f *badFixture) error { return f.fast.HPSortDistinct(f.zeros(4), f.freed(4), 0, 9) }, nil, "keys", "freed"},
	{"HPSortFew out shorter than keys", func(f *badFixture) error {
		return f.fast.HPSortFew(f.zeros(3), f.buf(1, 2, 3, 0), 0, 4)
	}, nil, "out", "3 elements for 4 keys"},
	{"HPSortFew keys view past the end", func(f *badFixture) error {
		return f.fast.HPSortFew(f.zeros(10), f.pastEnd(), 0, 9)
	}, nil, "keys", "out of range"},
	{"HPSort empty range", func(f *badFixture) error { return f.fast.HPSort(f.zeros(1), f.buf(5), 5, 5) }, sorts.ErrBadRange, "", "[5, 5): empty"},
	{"HPSortDistinct inverted range", func(f *badFixture) error {
		return f.fast.HPSortDistinct(f.zeros(1), f.buf(5), 9, 2)
	}, sorts.ErrBadRange, "", "[9, 2): empty"},
	{"HPSortFew range wider than MaxBins", func(f *badFixture) error {
		return f.fast.HPSortFew(f.zeros(1), f.buf(5), 0, sorts.MaxBins+1)
	}, sorts.ErrBadRange, "", "more than MaxBins"},
	{"HPSort key at hi", func(f *badFixture) error { return f.fast.HPSort(f.zeros(2), f.buf(1, 4), 0, 4) }, sorts.ErrKeyOutOfRange, "", "[0, 4)"},
	{"HPSortDistinct key below lo", func(f *badFixture) error {
		return f.fast.HPSortDistinct(f.zeros(2), f.buf(9, 10), 10, 20)
	}, sorts.ErrKeyOutOfRange, "", "[10, 20)"},
	{"HPSortFew key 2^32-1 past the range", func(f *badFixture) error {
		return f.fast.HPSortFew(f.zeros(3), f.buf(4, 1<<32-1, 3), 0, 100)
	}, sorts.ErrKeyOutOfRange, "", "[0, 100)"},
	{"HPSortDistinct repeated key", func(f *badFixture) error {
		return f.fast.HPSortDistinct(f.zeros(3), f.buf(4, 8, 4), 0, 10)
	}, sorts.ErrNotDistinct, "", "a key more than once"},
	{"HPSort over MaxBins values on the CPU", func(f *badFixture) error {
		return f.fast.HPSort(f.zeros(3), f.buf(5, 1, 3), 0, sorts.MaxBins)
	}, sorts.ErrTooLarge, "", "H-P sort of 3 keys over 1073741824 values needs"},
	{"HPSortFew over MaxBins values on the CPU", func(f *badFixture) error {
		return f.fast.HPSortFew(f.zeros(3), f.buf(5, 1, 3), 0, sorts.MaxBins)
	}, sorts.ErrTooLarge, "", "0-compressed H-P sort of 3 keys over 1073741824 values needs"},

	{"CountSortPairs nil outVals", func(f *badFixture) error {
		return f.fast.CountSortPairs(f.zeros(1), nil, f.buf(1), f.buf(2), 0, 2)
	}, nil, "outVals", "nil buffer"},
	{"CountSortPairs vals shorter than keys", func(f *badFixture) error {
		return f.fast.CountSortPairs(f.zeros(2), f.zeros(2), f.buf(1, 0), f.buf(2), 0, 2)
	}, nil, "vals", "1 elements for 2 keys"},
	{"CountSortPairs outKeys longer than keys", func(f *badFixture) error {
		return f.fast.CountSortPairs(f.zeros(3), f.zeros(2), f.buf(1, 0), f.buf(2, 3), 0, 2)
	}, nil, "outKeys", "3 elements for 2 keys"},
	{"CountSortPairs outKeys are the keys", func(f *badFixture) error {
		keys := f.buf(1, 0)
		return f.fast.CountSortPairs(keys, f.zeros(2), keys, f.buf(2, 3), 0, 2)
	}, nil, "outKeys", "shares memory with keys"},
	{"CountSortPairs outVals a view of vals", func(f *badFixture) error {
		vals := f.buf(2, 3, 4)
		return f.fast.CountSortPairs(f.zeros(2), vals.View(1, 2), f.buf(1, 0), vals.View(0, 2), 0, 2)
	}, nil, "outVals", "shares memory with vals"},
	{"CountSortPairs outKeys and outVals one buffer", func(f *badFixture) error {
		out := f.zeros(2)
		return f.fast.CountSortPairs(out, out, f.buf(1, 0), f.buf(2, 3), 0, 2)
	}, nil, "outKeys", "shares memory with outVals"},
	{"CountSortPairs keys view past the end", func(f *badFixture) error {
		return f.fast.CountSortPairs(f.zeros(5), f.zeros(5), f.pastEnd(), f.zeros(5), 0, 9)
	}, nil, "keys", "out of range"},
	{"CountSortPairs empty range", func(f *badFixture) error {
		return f.fast.CountSortPairs(f.zeros(1), f.zeros(1), f.buf(5), f.buf(1), 5, 5)
	}, sorts.ErrBadRange, "", "[5, 5): empty"},
	{"CountSortPairs key past the range", func(f *badFixture) error {
		return f.fast.CountSortPairs(f.zeros(2), f.zeros(2), f.buf(3, 7), f.buf(1, 2), 3, 7)
	}, sorts.ErrKeyOutOfRange, "", "[3, 7)"},
	{"CountSortPairs over MaxBins values on the CPU", func(f *badFixture) error {
		return f.fast.CountSortPairs(f.zeros(1), f.zeros(1), f.buf(3), f.buf(1), 0, sorts.MaxBins)
	}, sorts.ErrTooLarge, "", "count sort of pairs of 1 keys over 1073741824 values needs"},
	{"zero Sorter CountSortPairs", func(f *badFixture) error {
		return (&sorts.Sorter{}).CountSortPairs(f.zeros(1), f.zeros(1), f.buf(1), f.buf(1), 0, 2)
	}, sorts.ErrNoDevice, "", "not made by New"},
	{"NotesRadixSort digitBits 3", func(f *badFixture) error {
		return f.fast.NotesRadixSort(f.zeros(2), f.buf(2, 1), 3)
	}, sorts.ErrBadDigitBits, "", "digitBits 3"},
	{"NotesRadixSort digitBits 0, no keys", func(f *badFixture) error {
		return f.fast.NotesRadixSort(f.zeros(0), f.zeros(0), 0)
	}, sorts.ErrBadDigitBits, "", "digitBits 0"},
	{"NotesRadixSort nil keys", func(f *badFixture) error { return f.fast.NotesRadixSort(f.zeros(1), nil, 4) }, nil, "keys", "nil buffer"},
	{"NotesRadixSort out shorter than keys", func(f *badFixture) error {
		return f.fast.NotesRadixSort(f.zeros(1), f.buf(2, 1), 2)
	}, nil, "out", "1 elements for 2 keys"},
	{"NotesRadixSort keys view past the end", func(f *badFixture) error {
		return f.fast.NotesRadixSort(f.zeros(5), f.pastEnd(), 1)
	}, nil, "keys", "out of range"},
	{"NotesRadixSort over the limit of CPUMemoryLimit", func(f *badFixture) error {
		dev := runtime.CPU(runtime.CPUMemoryLimit(1 << 20))
		s, err := sorts.New(dev)
		if err != nil {
			return err
		}
		defer s.Close()
		keys, err := runtime.Alloc[uint32](dev, 100000) // 400 KB, and as much again for the scratch
		if err != nil {
			return err
		}
		defer keys.Free()
		out, err := runtime.Alloc[uint32](dev, 100000)
		if err != nil {
			return err
		}
		defer out.Free()
		return s.NotesRadixSort(out, keys, 4)
	}, sorts.ErrTooLarge, "", "notes' radix sort of 100000 elements needs"},
	{"zero Sorter NotesRadixSort", func(f *badFixture) error {
		return (&sorts.Sorter{}).NotesRadixSort(f.zeros(1), f.buf(1), 4)
	}, sorts.ErrNoDevice, "", "not made by New"},
}
