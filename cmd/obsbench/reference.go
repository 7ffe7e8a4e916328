package main

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sync"

	obs "github.com/obsidian-go/obsidian/runtime"
)

// reference holds a distribution's keys on the host and what the checks
// compare the methods' results with.
type reference[K key] struct {
	keys, sorted []K
	distinct     []K // made on first use
	descending   []K // the keys largest first, made on first use
}

// newReference sorts keys for the checks.
func newReference[K key](keys []K) *reference[K] {
	return &reference[K]{keys: keys, sorted: sortedCopy(keys)}
}

// distinctKeys returns the sorted distinct keys.
func (r *reference[K]) distinctKeys() []K {
	if r.distinct == nil {
		r.distinct = slices.Compact(slices.Clone(r.sorted))
	}
	return r.distinct
}

// descendingKeys returns the keys sorted largest first.
func (r *reference[K]) descendingKeys() []K {
	if r.descending == nil {
		r.descending = slices.Clone(r.sorted)
		slices.Reverse(r.descending)
	}
	return r.descending
}

// checkSorted checks a sort: out holds the keys in ascending order.
func checkSorted[K key](c *call[K], count int, ref *reference[K]) error {
	return compare(c.out, count, ref.sorted)
}

// checkDescending checks a sort largest first: out holds the keys in
// descending order.
func checkDescending[K key](c *call[K], count int, ref *reference[K]) error {
	return compare(c.out, count, ref.descendingKeys())
}

// checkDistinct checks a sort that removes duplicates: out holds the
// distinct keys in ascending order.
func checkDistinct[K key](c *call[K], count int, ref *reference[K]) error {
	return compare(c.out, count, ref.distinctKeys())
}

// checkScan checks the scan: out holds the exclusive prefix sums of the
// keys, modulo 2^32.
func checkScan(c *call[uint32], count int, ref *reference[uint32]) error {
	sums := make([]uint32, len(ref.keys))
	acc := uint32(0)
	for i, k := range ref.keys {
		sums[i] = acc
		acc += k
	}
	return compare(c.out, count, sums)
}

// checkPairs checks a stable sort of pairs whose values are the keys'
// indices: out holds the keys sorted and valuesOut the stable argsort.
func checkPairs[K key](c *call[K], count int, ref *reference[K]) error {
	return checkPairsIn(c, count, ref.keys, ref.sorted)
}

// checkPairsDescending checks a stable sort of pairs largest first, as
// checkPairs: equal keys still in the order of their indices.
func checkPairsDescending[K key](c *call[K], count int, ref *reference[K]) error {
	return checkPairsIn(c, count, ref.keys, ref.descendingKeys())
}

// checkPairsIn checks a stable sort of pairs of keys with their indices
// into the order of sorted.
func checkPairsIn[K key](c *call[K], count int, keys, sorted []K) error {
	if err := compare(c.out, count, sorted); err != nil {
		return fmt.Errorf("keys: %w", err)
	}
	return checkArgsort(c, count, keys, sorted)
}

// checkArgsort checks a stable argsort of keys into the order of sorted:
// valuesOut holds each index of the keys once, in the order of the keys,
// equal keys in the order of their indices.
func checkArgsort[K key](c *call[K], count int, keys, sorted []K) error {
	n := len(keys)
	if count != n {
		return fmt.Errorf("%d results, want %d", count, n)
	}
	got, err := c.valuesOut.View(0, n).ToSlice()
	if err != nil {
		return err
	}
	seen := make([]bool, n)
	for i, v := range got {
		switch {
		case int64(v) >= int64(n):
			return fmt.Errorf("value %d is %d, not an index of the %d keys", i, v, n)
		case seen[v]:
			return fmt.Errorf("value %d is %d, an index already seen", i, v)
		case keys[v] != sorted[i]:
			return fmt.Errorf("value %d is %d, whose key %v is not the sorted key %v", i, v, keys[v], sorted[i])
		case i > 0 && sorted[i-1] == sorted[i] && got[i-1] > v:
			return fmt.Errorf("values %d and %d are %d and %d: equal keys out of their order", i-1, i, got[i-1], v)
		}
		seen[v] = true
	}
	return nil
}

// compare compares the first count elements of out with want, element by
// element.
func compare[K key](out *obs.Buffer[K], count int, want []K) error {
	if count != len(want) {
		return fmt.Errorf("%d results, want %d", count, len(want))
	}
	got, err := out.View(0, count).ToSlice()
	if err != nil {
		return err
	}
	for i := range want {
		if got[i] != want[i] {
			return fmt.Errorf("element %d is %v, want %v", i, got[i], want[i])
		}
	}
	return nil
}

// sortedCopy returns keys sorted. Large inputs are cut into equal parts
// sorted with slices.Sort in parallel, then merged pairwise, so that the
// references for 2^27 keys take a second or two.
func sortedCopy[K cmp.Ordered](keys []K) []K {
	src := slices.Clone(keys)
	parts := 1
	for parts*2 <= min(runtime.NumCPU(), 16) {
		parts *= 2
	}
	if parts == 1 || len(src) < 1<<16 {
		slices.Sort(src)
		return src
	}
	bound := make([]int, parts+1)
	for p := range bound {
		bound[p] = len(src) * p / parts
	}
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() { slices.Sort(src[bound[p]:bound[p+1]]) })
	}
	wg.Wait()
	dst := make([]K, len(src))
	for width := 1; width < parts; width *= 2 {
		for p := 0; p < parts; p += 2 * width {
			lo, mid, hi := bound[p], bound[p+width], bound[p+2*width]
			wg.Go(func() { merge(dst[lo:hi], src[lo:mid], src[mid:hi]) })
		}
		wg.Wait()
		src, dst = dst, src
	}
	return src
}

// merge writes the sorted a and b, merged, to dst (of their total length).
func merge[K cmp.Ordered](dst, a, b []K) {
	i, j := 0, 0
	for k := range dst {
		if j == len(b) || (i < len(a) && a[i] <= b[j]) {
			dst[k] = a[i]
			i++
		} else {
			dst[k] = b[j]
			j++
		}
	}
}

// checkUnstablePairs checks an unstable sort of pairs whose values are
// the keys' indices: out holds the keys sorted and valuesOut each index
// once, next to its own key.
func checkUnstablePairs(c *call[uint32], count int, ref *reference[uint32]) error {
	if err := compare(c.out, count, ref.sorted); err != nil {
		return fmt.Errorf("keys: %w", err)
	}
	got, err := c.valuesOut.View(0, count).ToSlice()
	if err != nil {
		return err
	}
	seen := make([]bool, len(ref.keys))
	for i, v := range got {
		if int64(v) >= int64(len(ref.keys)) || seen[v] {
			return fmt.Errorf("value %d at %d: not an index, or one seen before", v, i)
		}
		seen[v] = true
		if ref.keys[v] != ref.sorted[i] {
			return fmt.Errorf("value %d at %d: its key is %d, the key there %d", v, i, ref.keys[v], ref.sorted[i])
		}
	}
	return nil
}

// checkBatches checks a sort of independent batches of keys (batchFor):
// out holds each batch of the keys sorted.
func checkBatches(c *call[uint32], count int, ref *reference[uint32]) error {
	want, batch := slices.Clone(ref.keys), batchFor(len(ref.keys))
	for at := 0; at < len(want); at += batch {
		slices.Sort(want[at:min(at+batch, len(want))])
	}
	return compare(c.out, count, want)
}
