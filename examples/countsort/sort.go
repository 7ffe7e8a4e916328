package countsort

import (
	"errors"
	"fmt"

	"github.com/obsidian-go/obsidian/runtime"
)

// ErrKeyOutOfRange is returned (wrapped) by Sort for a key outside the
// range it was given.
var ErrKeyOutOfRange = errors.New("key outside the declared range")

// Sort writes the keys, sorted, to out (of the same length as keys), by
// counting sort over the key range [lo, hi), on the keys' device.
func Sort(dev runtime.Device, out, keys *runtime.Buffer[uint32], lo, hi uint32) error {
	if out.Len() != keys.Len() {
		return fmt.Errorf("countsort: %d keys, room for %d", keys.Len(), out.Len())
	}
	if hi <= lo {
		return fmt.Errorf("countsort: empty key range [%d, %d)", lo, hi)
	}
	var temps []*runtime.Buffer[uint32]
	defer func() {
		for _, b := range temps {
			b.Free()
		}
	}()
	zeroed := func(n int) (*runtime.Buffer[uint32], error) {
		b, err := runtime.Alloc[uint32](dev, n)
		if err != nil {
			return nil, err
		}
		temps = append(temps, b)
		return b, b.Fill(0)
	}
	bins, err := zeroed(int(hi - lo))
	if err != nil {
		return err
	}
	bad, err := zeroed(1)
	if err != nil {
		return err
	}
	if err := Count(dev, runtime.LaunchConfig{}, keys, lo, bins, bad); err != nil {
		return err
	}
	flag, err := bad.ToSlice()
	if err != nil {
		return err
	}
	if flag[0] != 0 {
		return fmt.Errorf("countsort: %w [%d, %d)", ErrKeyOutOfRange, lo, hi)
	}
	ends, err := zeroed(bins.Len())
	if err != nil {
		return err
	}
	if err := scan(dev, ends, bins, zeroed); err != nil {
		return err
	}
	return Reconstruct(dev, runtime.LaunchConfig{}, ends, lo, out)
}

// scan writes the inclusive prefix sums of in to out: a scan of every
// chunk, then, for more than one chunk, the chunk totals scanned the same
// way and added back.
func scan(dev runtime.Device, out, in *runtime.Buffer[uint32], zeroed func(int) (*runtime.Buffer[uint32], error)) error {
	totals, err := zeroed((in.Len() + chunk - 1) / chunk)
	if err != nil {
		return err
	}
	if err := ScanBlocks(dev, runtime.LaunchConfig{}, in, out, totals); err != nil {
		return err
	}
	if totals.Len() == 1 {
		return nil
	}
	scanned, err := zeroed(totals.Len())
	if err != nil {
		return err
	}
	if err := scan(dev, scanned, totals, zeroed); err != nil {
		return err
	}
	return AddTotals(dev, runtime.LaunchConfig{}, scanned, out)
}
