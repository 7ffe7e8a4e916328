package sorts_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// hpMethod is an H-P sort of a Sorter.
type hpMethod struct {
	name   string
	sort   func(s *sorts.Sorter) func(out, keys *runtime.Buffer[uint32], lo, hi uint32) error
	shapes []keyShape // the inputs it takes
}

var hpMethods = []hpMethod{
	{"H-P", func(s *sorts.Sorter) func(out, keys *runtime.Buffer[uint32], lo, hi uint32) error { return s.HPSort },
		[]keyShape{anyKeys, fewKeys, equalKeys, distinctKeys}},
	{"1-H-P", func(s *sorts.Sorter) func(out, keys *runtime.Buffer[uint32], lo, hi uint32) error {
		return s.HPSortDistinct
	},
		[]keyShape{distinctKeys}},
	{"0-compressed H-P", func(s *sorts.Sorter) func(out, keys *runtime.Buffer[uint32], lo, hi uint32) error { return s.HPSortFew },
		[]keyShape{anyKeys, fewKeys, equalKeys, distinctKeys}},
}

// checkHP checks every H-P sort against slices.Sort on inputs of at most
// maxN keys over at most maxSpan values.
func checkHP(t *testing.T, dev runtime.Device, cases, maxN int, maxSpan uint32) {
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	props := gopter.NewProperties(proptest.Parameters(t, cases))
	for _, m := range hpMethods {
		sort := m.sort(s)
		props.Property(m.name+" equals slices.Sort", prop.ForAll(func(in papersInput) (bool, error) {
			got, err := onBuffers(dev, in.keys, func(out, keys *runtime.Buffer[uint32]) error {
				return sort(out, keys, in.lo, in.lo+in.span)
			})
			if err != nil {
				return false, err
			}
			if i := firstDiff(got, slices.Sorted(slices.Values(in.keys))); i >= 0 {
				t.Logf("%s of %v: first difference at %d", m.name, in, i)
				return false, nil
			}
			return true, nil
		}, papersInputs(maxN, maxSpan, m.shapes...)))
	}
	props.TestingRun(t)
}

func TestHPSortsEqualSlicesSort(t *testing.T) {
	checkHP(t, runtime.CPU(), 25, 600, 3000)
}

// TestHPSortsInPlace sorts keys into their own buffer.
func TestHPSortsInPlace(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(rand.Uint64(), 11))
	keys := r.Perm(300)
	for _, m := range hpMethods {
		in := make([]uint32, len(keys))
		for i, k := range keys {
			in[i] = uint32(k) + 7
		}
		buf, err := runtime.FromSlice(dev, in)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.sort(s)(buf, buf, 7, 307); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		got, err := buf.ToSlice()
		buf.Free()
		if err != nil {
			t.Fatal(err)
		}
		if i := firstDiff(got, slices.Sorted(slices.Values(in))); i >= 0 {
			t.Errorf("%s in place: first difference at %d", m.name, i)
		}
	}
}

// TestHPSortKeyOutOfRange checks that every H-P sort reports a key outside
// its range, wherever it is, and writes nothing past out.
func TestHPSortKeyOutOfRange(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, m := range hpMethods {
		for _, bad := range []uint32{0, 99, 200, ^uint32(0)} {
			keys := []uint32{150, 120, bad, 101, 199}
			backing, err := runtime.FromSlice(dev, make([]uint32, len(keys)+2))
			if err != nil {
				t.Fatal(err)
			}
			guard := []uint32{0xdead, 0xbeef}
			if err := backing.View(len(keys), 2).CopyFrom(guard); err != nil {
				t.Fatal(err)
			}
			in, err := runtime.FromSlice(dev, keys)
			if err != nil {
				t.Fatal(err)
			}
			err = m.sort(s)(backing.View(0, len(keys)), in, 100, 200)
			if !errors.Is(err, sorts.ErrKeyOutOfRange) {
				t.Errorf("%s with key %d outside [100, 200): error %v, want ErrKeyOutOfRange", m.name, bad, err)
			}
			tail, _ := backing.View(len(keys), 2).ToSlice()
			if !slices.Equal(tail, guard) {
				t.Errorf("%s with key %d: wrote past out: %v", m.name, bad, tail)
			}
			in.Free()
			backing.Free()
		}
	}
}

// TestHPSortDistinctRepeatedKey checks that 1-H-P reports a repeated key.
func TestHPSortDistinctRepeatedKey(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, keys := range [][]uint32{{5, 5}, {1, 9, 3, 9, 0}, {7, 7, 7, 7}} {
		_, err := onBuffers(dev, keys, func(out, in *runtime.Buffer[uint32]) error { return s.HPSortDistinct(out, in, 0, 10) })
		if !errors.Is(err, sorts.ErrNotDistinct) {
			t.Errorf("1-H-P of %v: error %v, want ErrNotDistinct", keys, err)
		}
	}
}

// TestHPSortsAtAScanTile sorts as many distinct keys as their range holds,
// a multiple of the device scan's tile: then 0-compressed H-P scans one
// more count than there are keys (C[0] and one per value), which crosses
// into one more tile of the scan.
func TestHPSortsAtAScanTile(t *testing.T) {
	dev := runtime.CPU()
	s, err := sorts.New(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n := arrays.DeviceScanTile
	r := rand.New(rand.NewPCG(rand.Uint64(), 12))
	keys := make([]uint32, n)
	for i, k := range r.Perm(n) {
		keys[i] = uint32(k)
	}
	for _, m := range hpMethods {
		got, err := onBuffers(dev, keys, func(out, in *runtime.Buffer[uint32]) error {
			return m.sort(s)(out, in, 0, uint32(n))
		})
		if err != nil {
			t.Errorf("%s of %d distinct keys over [0, %d): %v", m.name, n, n, err)
			continue
		}
		if i := firstDiff(got, slices.Sorted(slices.Values(keys))); i >= 0 {
			t.Errorf("%s of %d distinct keys over [0, %d): first difference at %d", m.name, n, n, i)
		}
	}
}
