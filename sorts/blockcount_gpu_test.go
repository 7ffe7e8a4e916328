package sorts_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// TestGPUBlockCount checks the block counting sort on the GPU against
// slices.Sort on fresh random keys (checkBlockCount, 300 cases) and its
// keys outside the range (checkBlockCountStray).
func TestGPUBlockCount(t *testing.T) {
	g := gputest.Open(t)
	checkBlockCount(t, g, 300)
	checkBlockCountStray(t, g)
}

// TestGPUBlockCountOrBlockSort times, on the GPU and only with
// -radixshapes, SortKeys of fresh random uint32 keys of 2^10 to 2^13 keys
// (and 1000 and 5000) told ranges of 2^1 to 2^12 values by the block
// counting sort in each shape of blockCountTimedShapes whose tile takes
// the keys in at most four times their number, and by the sort picked
// without it (the block radix sort or the rank sort), each result first
// checked against Go. It logs one line per size, range and sort,
// "count<threads>x<keys>|other <n> keys bits <b> median_ms <ms>", in a
// subtest per size, and asserts nothing of the times.
func TestGPUBlockCountOrBlockSort(t *testing.T) {
	g, r, s, tm := forTiming(t, "the block counting sort", 41)
	defer s.SetBlockCountShape(kernels.BlockCountShape{})
	for _, n := range []int{1000, 1 << 10, 1 << 11, 1 << 12, 5000, 1 << 13} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			for _, bits := range []int{1, 2, 4, 6, 8, 10, 12} {
				keys := countKeys(r, "uniform", n, 0, 1<<bits)
				in, err := runtime.FromSlice(g, keys)
				if err != nil {
					t.Fatal(err)
				}
				out, err := runtime.Alloc[uint32](g, n)
				if err != nil {
					t.Fatal(err)
				}
				run := func() error { return s.SortKeys(out, in, 0, 1<<bits-1) }
				shapes := []kernels.BlockCountShape{{Threads: -1}}
				for _, c := range blockCountTimedShapes {
					if tile := c.Tile(); tile >= n && tile <= 4*n {
						shapes = append(shapes, c)
					}
				}
				for _, c := range shapes {
					s.SetBlockCountShape(c)
					how := fmt.Sprintf("count%dx%d", c.Threads, c.PerThread)
					if c.Threads < 0 {
						how = "other"
					}
					if err := errors.Join(out.Fill(^uint32(0)), run()); err != nil {
						t.Fatalf("%s %d keys of %d bits: %v", how, n, bits, err)
					}
					got, err := out.ToSlice()
					if err != nil {
						t.Fatal(err)
					}
					if msg := checkSorted("SortKeys", got, keys); msg != "" {
						t.Fatalf("%s %d keys of %d bits: %s", how, n, bits, msg)
					}
					t.Logf("%s %d keys bits %d median_ms %.4f", how, n, bits, tm.median(t, run))
				}
				if err := errors.Join(in.Free(), out.Free()); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// blockCountTimedShapes are the block counting sort's shapes
// TestGPUBlockCountOrBlockSort times.
var blockCountTimedShapes = []kernels.BlockCountShape{{Threads: 128, PerThread: 8}, {Threads: 256, PerThread: 4},
	{Threads: 256, PerThread: 8}, {Threads: 128, PerThread: 16}, {Threads: 512, PerThread: 8}, {Threads: 256, PerThread: 16},
	{Threads: 1024, PerThread: 4}, {Threads: 512, PerThread: 16}, {Threads: 1024, PerThread: 8}}
