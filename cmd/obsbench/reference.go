package main

import (
	"runtime"
	"slices"
	"sync"
)

// sortedCopy returns keys sorted. Large inputs are cut into equal parts
// sorted with slices.Sort in parallel, then merged pairwise, so that the
// references for 2^25 keys take a fraction of a second.
func sortedCopy(keys []uint32) []uint32 {
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
	dst := make([]uint32, len(src))
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
func merge(dst, a, b []uint32) {
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

// distinctOf returns the distinct keys of sorted, in order.
func distinctOf(sorted []uint32) []uint32 {
	return slices.Compact(slices.Clone(sorted))
}
