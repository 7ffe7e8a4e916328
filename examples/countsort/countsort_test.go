package countsort

import (
	"errors"
	"slices"
	"testing"

	"github.com/obsidian-go/obsidian/examples/internal/extest"
	"github.com/obsidian-go/obsidian/runtime"
)

// TestSort sorts random keys of several ranges (one chunk of bins and
// several, so the scan recurses) and compares with Go's sort.
func TestSort(t *testing.T) {
	r := extest.Rand(t)
	extest.OnDevices(t, func(t *testing.T, dev runtime.Device) {
		for _, c := range []struct {
			n      int
			lo, hi uint32
		}{{1, 0, 1}, {1000, 5, 21}, {3000, 100, 100 + 3*chunk + 7}, {1 + r.Intn(5000), 1 << 20, 1<<20 + 1 + uint32(r.Intn(4000))}} {
			keys := make([]uint32, c.n)
			for i := range keys {
				keys[i] = c.lo + r.Uint32()%(c.hi-c.lo)
			}
			out := extest.Alloc[uint32](t, dev, c.n)
			if err := Sort(dev, out, extest.Upload(t, dev, keys), c.lo, c.hi); err != nil {
				t.Fatal(err)
			}
			got := extest.Download(t, out)
			slices.Sort(keys)
			if i := firstDiff(got, keys); i >= 0 {
				t.Fatalf("%d keys in [%d, %d): out[%d] = %d, want %d", c.n, c.lo, c.hi, i, got[i], keys[i])
			}
		}
	})
}

// TestSortKeyOutOfRange checks a key outside the range is reported.
func TestSortKeyOutOfRange(t *testing.T) {
	extest.OnDevices(t, func(t *testing.T, dev runtime.Device) {
		keys := extest.Upload(t, dev, []uint32{3, 4, 9})
		err := Sort(dev, extest.Alloc[uint32](t, dev, 3), keys, 3, 5)
		if !errors.Is(err, ErrKeyOutOfRange) {
			t.Fatalf("Sort = %v, want ErrKeyOutOfRange", err)
		}
	})
}

func firstDiff(a, b []uint32) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}
