package sorts_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/sorts"
)

// TestGPUHotKeys sorts and counts 2^20+3 fresh random keys of every hot
// distribution (Zipf's law, 16 values spread over the range, all equal)
// and uniform ones on the GPU, over ranges that take every table kernel
// and 2^24 values (the windowed histogram), and compares the histogram,
// counting sort and occurrence sort with Go.
func TestGPUHotKeys(t *testing.T) {
	g := gputest.Open(t)
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0x407))
	const n = 1<<20 + 3
	for _, d := range hotDists {
		for _, bins := range append(hotBins, 1<<24) {
			lo := r.Uint32N(1 << 31)
			keys := d.keys(r, n, lo, bins)
			if msg := hotCase(g, s, keys, lo, bins, math.MaxInt); msg != "" {
				t.Errorf("%s keys in [%d, %d+%d): %s", d.name, lo, lo, bins, msg)
			}
		}
	}
}
