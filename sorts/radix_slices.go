package sorts

import (
	"errors"
	"fmt"
	"slices"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// SortPairsSlice returns the keys sorted by the radix sort and the values
// moved with their keys (see SortPairs): the sort is stable, so values of
// equal keys keep their order. values must be as long as keys. As
// SortSlice, it looks only at the bits in which the keys differ, and keys
// that are all equal come back as they are. Options: Bits (the bits
// looked at are then those of both), Descending.
func SortPairsSlice[K Key, V Value](s *Sorter, keys []K, values []V, opts ...RadixOption) (sortedKeys []K, sortedValues []V, err error) {
	_, err = s.locked(func() (int, error) {
		c, err := radixOptions[K](opts)
		if err != nil {
			return 0, err
		}
		sortedKeys, sortedValues, err = pairsSlice(s, keys, values, c)
		return 0, err
	})
	return sortedKeys, sortedValues, err
}

// ArgsortSlice returns the positions of the keys in their stable sort by
// the radix sort (see Argsort): keys[positions[0]] <= keys[positions[1]]
// <= ... (>= with Descending), equal keys in the order of their
// positions. As SortSlice, it looks only at the bits in which the keys
// differ. Options: Bits (the bits looked at are then those of both),
// Descending.
func ArgsortSlice[K Key](s *Sorter, keys []K, opts ...RadixOption) (positions []uint32, err error) {
	_, err = s.locked(func() (int, error) {
		c, err := radixOptions[K](opts)
		if err != nil {
			return 0, err
		}
		positions, err = argsortSlice(s, keys, c)
		return 0, err
	})
	return positions, err
}

// pairsSlice is SortPairsSlice with the Sorter locked.
func pairsSlice[K Key, V Value](s *Sorter, keys []K, values []V, c radixConfig) (sortedKeys []K, sortedValues []V, err error) {
	if err := radixCheckSliceLen(len(keys)); err != nil {
		return nil, nil, err
	}
	if len(values) != len(keys) {
		return nil, nil, &BufferError{Arg: "values", Err: fmt.Errorf("%d values for %d keys: want as many", len(values), len(keys))}
	}
	begin, end := sliceBits(keys, c)
	if end == 0 {
		return slices.Clone(keys), slices.Clone(values), nil
	}
	n := len(keys)
	r := request{op: "radix sort of pairs", keys: n, written: n}
	if err := s.checkCost(r, 2*uint64(n)*(uint64(runtime.TypeOf[K]().Size())+uint64(runtime.TypeOf[V]().Size()))); err != nil {
		return nil, nil, err
	}
	keysIn, keysOut, err := sliceBuffers(s, r, "keys", keys)
	if err != nil {
		return nil, nil, err
	}
	defer func() { err = errors.Join(err, keysIn.Free(), keysOut.Free()) }()
	valuesIn, valuesOut, err := sliceBuffers(s, r, "values", values)
	if err != nil {
		return nil, nil, err
	}
	defer func() { err = errors.Join(err, valuesIn.Free(), valuesOut.Free()) }()
	job := radixJob[K, V]{op: r.op, keys: keysIn, outKeys: keysOut, values: valuesIn, outValues: valuesOut,
		mode: kernels.Pairs, begin: begin, end: end, order: c.order}
	if err := radixRun(s, job); err != nil {
		return nil, nil, err
	}
	if sortedKeys, err = keysOut.ToSlice(); err != nil {
		return nil, nil, err
	}
	if sortedValues, err = valuesOut.ToSlice(); err != nil {
		return nil, nil, err
	}
	return sortedKeys, sortedValues, nil
}

// argsortSlice is ArgsortSlice with the Sorter locked.
func argsortSlice[K Key](s *Sorter, keys []K, c radixConfig) (positions []uint32, err error) {
	if err := radixCheckSliceLen(len(keys)); err != nil {
		return nil, err
	}
	begin, end := sliceBits(keys, c)
	n := len(keys)
	if end == 0 {
		positions = make([]uint32, n)
		for i := range positions {
			positions[i] = uint32(i)
		}
		return positions, nil
	}
	r := request{op: "argsort", keys: n, written: n}
	if err := s.checkCost(r, uint64(n)*(2*uint64(runtime.TypeOf[K]().Size())+4)); err != nil {
		return nil, err
	}
	keysIn, keysOut, err := sliceBuffers(s, r, "keys", keys)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, keysIn.Free(), keysOut.Free()) }()
	var out *runtime.Buffer[uint32]
	if err := withMemory(s, r, func() (err error) {
		out, err = runtime.Alloc[uint32](s.dev, n)
		if err != nil {
			return fmt.Errorf("allocating the positions on %s: %w", s.dev.Name(), err)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, out.Free()) }()
	job := radixJob[K, uint32]{op: r.op, keys: keysIn, outKeys: keysOut, outValues: out, mode: kernels.Positions,
		begin: begin, end: end, order: c.order}
	if err := radixRun(s, job); err != nil {
		return nil, err
	}
	return out.ToSlice()
}
