package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/runtime"
)

// TestGPUWarpAggregateHot runs WarpAggregateHot on the GPU and in the
// evaluator on fresh random data in 1024 warps with valid counts from 1 to
// 32 (hot keys by a power law, two, five or sixteen values, all equal, any
// keys; sorted within the warp or not), 32, 64 and 8-bit, for add, max,
// min, xor and two operators that are not commutative, and compares them
// element by element, and with Go.
func TestGPUWarpAggregateHot(t *testing.T) {
	gpu := gputest.Open(t)
	r := rand.New(rand.NewPCG(freshSeed(t), 0x407))
	gpuHot(t, gpu, r, u32Ops, hotDraws[uint32](1e8/16))
	gpuHot(t, gpu, r, i64Ops, hotDraws[int64](1<<40))
	gpuHot(t, gpu, r, u32Ops[:1], hotDraws[uint8](1))
}

// gpuHot compares WarpAggregateHot on gpu with the evaluator and Go for
// the operators ops and the key draws draws.
func gpuHot[K dsl.Integer, T dsl.Number](t *testing.T, gpu runtime.Device, r *rand.Rand, ops []operator[T], draws []keyDraw[K]) {
	const warps = 1024
	for _, o := range ops {
		for d, draw := range draws {
			for _, sorted := range []bool{false, true} {
				a := newAggregation(r, o, draw, warps, sorted)
				what := fmt.Sprintf("%T keys of draw %d, sorted %v, %s", a.keys[0], d, sorted, o.name)
				k := func() *dsl.Kernel { return aggregateKernelOf(o, arrays.WarpAggregateHot[K, T]) }
				wantLeaders, wantTotals, err := a.on(runtime.CPU(), k())
				if err != nil {
					t.Fatalf("%s on the CPU: %v", what, err)
				}
				leaders, totals, err := a.on(gpu, k())
				if err != nil {
					t.Fatalf("%s on the GPU: %v", what, err)
				}
				if diff := differ("leaders", leaders, wantLeaders) + differ("totals", totals, wantTotals); diff != "" {
					t.Errorf("%s: the GPU differs from the evaluator: %s", what, diff)
				}
				goLeaders, goTotals := a.hotModel(o.apply)
				if diff := differ("leaders", leaders, goLeaders) + differ("totals", totals, goTotals); diff != "" {
					t.Errorf("%s: the GPU differs from Go: %s", what, diff)
				}
			}
		}
	}
}
