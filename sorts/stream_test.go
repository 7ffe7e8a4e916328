package sorts_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts"
)

// checkOnStreams runs, at the same time, Sorters of dev each on its own
// stream (OnStream): the counting sorts, scans and histograms of checkAll
// (cases cases of at most maxN keys) and the radix sorts, pairs, argsorts
// and unique sorts of checkKeyType for keys of three types (lengths),
// every result compared with plain Go.
func checkOnStreams(t *testing.T, dev runtime.Device, streams, cases, maxN int, lengths []int) {
	seed := proptest.Seed(t)
	for i := range streams {
		t.Run(fmt.Sprintf("stream %d", i), func(t *testing.T) {
			t.Parallel()
			st, err := dev.NewStream()
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			checkAll(t, dev, cases, maxN, sorts.OnStream(st))
			s, err := sorts.New(dev, sorts.OnStream(st))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			checkKeyType[uint32](t, s, dev, lengths, seed+uint64(i), false)
			checkKeyType[int64](t, s, dev, lengths, seed+uint64(i), false)
			checkKeyType[float32](t, s, dev, lengths, seed+uint64(i), false)
		})
	}
}

func TestSortsOnStreamsOnCPU(t *testing.T) {
	checkOnStreams(t, runtime.CPU(), 2, 3, 3000, []int{1, 777})
}

func TestGPUSortsOnStreams(t *testing.T) {
	checkOnStreams(t, gputest.Open(t), 3, 10, 100000, []int{1, 2000, 4097, 1<<20 + 3})
}

// BenchmarkGPUSortersOnStreams times SortKeys of 2^16 fresh random keys
// over every bit (a radix sort of a few launches, which leaves most of the
// GPU idle) by 1, 2 and 4 Sorters, each on its own stream and fed by its
// own goroutine: the time a sort, so that streams that overlap divide it.
// Each Sorter's last result is checked against slices.Sort.
func BenchmarkGPUSortersOnStreams(b *testing.B) {
	g := gputest.Open(b)
	const n = 1 << 16
	for _, streams := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("streams=%d", streams), func(b *testing.B) {
			type worker struct {
				st        runtime.Stream
				s         *sorts.Sorter
				host      []uint32
				keys, out *runtime.Buffer[uint32]
			}
			r := rand.New(rand.NewPCG(rand.Uint64(), 7))
			workers := make([]worker, streams)
			for i := range workers {
				w := &workers[i]
				var err error
				if w.st, err = g.NewStream(); err != nil {
					b.Fatal(err)
				}
				defer w.st.Close()
				if w.s, err = sorts.New(g, sorts.OnStream(w.st)); err != nil {
					b.Fatal(err)
				}
				defer w.s.Close()
				w.host = make([]uint32, n)
				for j := range w.host {
					w.host[j] = r.Uint32()
				}
				if w.keys, err = runtime.FromSlice(g, w.host); err != nil {
					b.Fatal(err)
				}
				defer w.keys.Free()
				if w.out, err = runtime.Alloc[uint32](g, n); err != nil {
					b.Fatal(err)
				}
				defer w.out.Free()
				// One untimed sort compiles the kernels and grows the scratch.
				if err := errors.Join(w.s.SortKeys(w.out, w.keys, 0, ^uint32(0)), w.st.Synchronize()); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			var wg sync.WaitGroup
			errs := make([]error, streams)
			for i := range workers {
				wg.Go(func() {
					w := &workers[i]
					for range (b.N + streams - 1 - i) / streams {
						if errs[i] = w.s.SortKeys(w.out, w.keys, 0, ^uint32(0)); errs[i] != nil {
							return
						}
					}
					errs[i] = w.st.Synchronize()
				})
			}
			wg.Wait()
			b.StopTimer()
			if err := errors.Join(errs...); err != nil {
				b.Fatal(err)
			}
			for i, w := range workers {
				got, err := w.out.ToSlice()
				if err != nil {
					b.Fatal(err)
				}
				if !slices.Equal(got, slices.Sorted(slices.Values(w.host))) {
					b.Fatalf("stream %d: the keys came out unsorted", i)
				}
			}
		})
	}
}
