package arrays_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/runtime"
)

// TestGPUWarpReserveHot runs WarpReserveHot on the GPU on fresh random
// cells in 256 blocks of four warps (hot cells by a power law, two, five
// or sixteen cells, all equal, any), with counters in shared and in global
// memory: the counters after must equal the evaluator's element by
// element, and the slots must keep the law (the lanes of a cell take each
// value from the counter's start to its end once), as the order of the
// slots among racing lanes is the GPU's.
func TestGPUWarpReserveHot(t *testing.T) {
	gpu := gputest.Open(t)
	r := rand.New(rand.NewPCG(freshSeed(t), 0x5e7))
	for d, draw := range reserveDraws() {
		for _, global := range []bool{false, true} {
			v := newReservation(r, draw, 256)
			want, _, err := v.run(runtime.CPU(), global)
			if err != nil {
				t.Fatalf("draw %d, global %v, on the CPU: %v", d, global, err)
			}
			after, slots, err := v.run(gpu, global)
			if err != nil {
				t.Fatalf("draw %d, global %v, on the GPU: %v", d, global, err)
			}
			if !slices.Equal(after, want) {
				t.Errorf("draw %d, global %v: the GPU's counters differ from the evaluator's: %s", d, global, differ("counters", after, want))
			}
			if msg := v.check(after, slots); msg != "" {
				t.Errorf("draw %d, global %v: %s", d, global, msg)
			}
		}
	}
}
