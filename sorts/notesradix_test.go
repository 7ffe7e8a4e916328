package sorts_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// checkNotesRadix checks NotesRadixSort with every digit width against
// slices.Sort on inputs of at most maxN keys, over ranges up to all of
// uint32.
func checkNotesRadix(t *testing.T, dev runtime.Device, cases, maxN int) {
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	props := gopter.NewProperties(proptest.Parameters(t, cases))
	props.Property("the notes' radix sort equals slices.Sort", prop.ForAll(func(in papersInput, digitBits int) (bool, error) {
		got, err := onBuffers(dev, in.keys, func(out, keys *runtime.Buffer[uint32]) error {
			return s.NotesRadixSort(out, keys, digitBits)
		})
		if err != nil {
			return false, err
		}
		if i := firstDiff(got, slices.Sorted(slices.Values(in.keys))); i >= 0 {
			t.Logf("radix sort by %d-bit digits of %v: first difference at %d", digitBits, in, i)
			return false, nil
		}
		return true, nil
	}, papersInputs(maxN, ^uint32(0), anyKeys, fewKeys, equalKeys, distinctKeys), gen.IntRange(0, len(sorts.NotesDigitBits)-1).Map(func(i int) int { return sorts.NotesDigitBits[i] })))
	props.TestingRun(t)
}

func TestNotesRadixSort(t *testing.T) {
	checkNotesRadix(t, runtime.CPU(), 12, 1100)
}

// TestNotesRadixSortInPlace sorts keys of every width into their own
// buffer, with each digit width.
func TestNotesRadixSortInPlace(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	keys := []uint32{1 << 31, 7, 0, ^uint32(0), 7, 65536, 3, 1 << 20}
	for _, digitBits := range sorts.NotesDigitBits {
		buf, err := runtime.FromSlice(dev, keys)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.NotesRadixSort(buf, buf, digitBits); err != nil {
			t.Fatal(err)
		}
		got, err := buf.ToSlice()
		buf.Free()
		if err != nil {
			t.Fatal(err)
		}
		if want := slices.Sorted(slices.Values(keys)); !slices.Equal(got, want) {
			t.Errorf("%d-bit digits in place: %v, want %v", digitBits, got, want)
		}
	}
}

// TestNotesRadixSortDigitBits checks that widths other than 1, 2 and 4
// are refused, naming the width.
func TestNotesRadixSortDigitBits(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, digitBits := range []int{-1, 0, 3, 5, 8, 32} {
		_, err := onBuffers(dev, []uint32{2, 1}, func(out, keys *runtime.Buffer[uint32]) error {
			return s.NotesRadixSort(out, keys, digitBits)
		})
		if !errors.Is(err, sorts.ErrBadDigitBits) || !containsAll(err.Error(), fmt.Sprint("digitBits ", digitBits)) {
			t.Errorf("digitBits %d: error %v, want ErrBadDigitBits naming it", digitBits, err)
		}
	}
}
