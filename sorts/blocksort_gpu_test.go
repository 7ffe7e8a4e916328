package sorts_test

import (
	"math/rand/v2"
	"testing"

	"github.com/obsidian-go/obsidian/sorts"
)

// TestGPUBlockSort runs the block sort kernel on the GPU on fresh random
// keys of every length of blockSortLengths (random, few, equal, sorted and
// reversed; uint32, int32 and float32 orderings with digits of 4 and 8
// bits, uint64 and int64 with 4; keys alone and pairs) and compares it with
// Go's stable sort; then Sort and SortRange of small inputs.
func TestGPUBlockSort(t *testing.T) {
	g := openGPU(t)
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0xb50))
	for _, n := range blockSortLengths() {
		for _, shape := range blockShapes {
			for _, pairs := range []bool{false, true} {
				for _, o := range blockOrders32 {
					for _, bits := range []int{4, 8} {
						if msg := checkBlockSort(g, o, bits, pairs, blockKeys(r, o, shape, n)); msg != "" {
							t.Error(msg)
						}
					}
				}
				for _, o := range blockOrders64 {
					if msg := checkBlockSort(g, o, 4, pairs, blockKeys(r, o, shape, n)); msg != "" {
						t.Error(msg)
					}
				}
			}
		}
	}
	s, err := sorts.New(g)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkSmallSorts(t, s, r)
}
