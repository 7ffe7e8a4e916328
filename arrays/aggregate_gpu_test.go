package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// keyDistribution is a way to draw the keys of a test: each warp's keys
// sorted when sorted.
type keyDistribution[K dsl.Integer] struct {
	name   string
	draw   keyDraw[K]
	sorted bool
}

// gpuKeyDistributions are the key distributions of the GPU tests: all
// keys equal, all distinct, few distinct, sorted runs and any keys; the
// few keys spread over K by spread.
func gpuKeyDistributions[K dsl.Integer](r *rand.Rand, spread uint64) []keyDistribution[K] {
	same := anyKey[K](r)
	var next K
	return []keyDistribution[K]{
		{"all equal", func(*rand.Rand) K { return same }, false},
		{"all distinct", func(*rand.Rand) K { next++; return next }, false},
		{"few distinct", alphabet[K](3, spread), false},
		{"sorted", alphabet[K](12, spread), true},
		{"any", anyKey[K], false},
	}
}

// gpuAggregate compares WarpAggregate, WarpAggregateRuns and (for 32 and
// 64-bit keys) MatchAny on the GPU with the evaluator and with Go, in 1024 warps with valid counts
// from 1 to 32, for the operators ops and the key distributions dists.
func gpuAggregate[K dsl.Integer, T dsl.Number](t *testing.T, gpu runtime.Device, r *rand.Rand, ops []operator[T],
	dists []keyDistribution[K]) {
	const warps = 1024
	for _, o := range ops {
		for _, d := range dists {
			a := newAggregation(r, o, d.draw, warps, d.sorted)
			for _, runs := range []bool{false, true} {
				what := fmt.Sprintf("%T keys %s, %s, runs %v", a.keys[0], d.name, o.name, runs)
				wantLeaders, wantTotals, err := a.on(runtime.CPU(), aggregateKernel[K](o, runs))
				if err != nil {
					t.Fatalf("%s on the CPU: %v", what, err)
				}
				leaders, totals, err := a.on(gpu, aggregateKernel[K](o, runs))
				if err != nil {
					t.Fatalf("%s on the GPU: %v", what, err)
				}
				if diff := differ("leaders", leaders, wantLeaders) + differ("totals", totals, wantTotals); diff != "" {
					t.Errorf("%s: the GPU differs from the evaluator: %s", what, diff)
				}
				goLeaders, goTotals := a.model(o.apply, runs)
				if diff := differ("leaders", leaders, goLeaders) + differ("totals", totals, goTotals); diff != "" {
					t.Errorf("%s: the GPU differs from Go: %s", what, diff)
				}
			}
			if !ir.Matchable(dsl.TypeOf[K]()) { // MatchAny takes 32 and 64-bit keys
				continue
			}
			want, err := matches(runtime.CPU(), a.keys)
			if err != nil {
				t.Fatalf("MatchAny of %T keys %s on the CPU: %v", a.keys[0], d.name, err)
			}
			got, err := matches(gpu, a.keys)
			if err != nil {
				t.Fatalf("MatchAny of %T keys %s on the GPU: %v", a.keys[0], d.name, err)
			}
			if diff := differ("masks", got, want); diff != "" {
				t.Errorf("MatchAny of %T keys %s: the GPU differs from the evaluator: %s", a.keys[0], d.name, diff)
			}
		}
	}
}

// TestGPUWarpAggregate runs WarpAggregate, WarpAggregateRuns and MatchAny
// on the GPU and in the evaluator on fresh random data, keys all equal,
// all distinct, few distinct, sorted and any, 32, 64 and 8-bit, for add,
// max, min, xor and two operators that are not commutative, and compares
// them element by element, and with Go.
func TestGPUWarpAggregate(t *testing.T) {
	gpu := gputest.Open(t)
	r := rand.New(rand.NewPCG(freshSeed(t), 7))
	gpuAggregate(t, gpu, r, u32Ops, gpuKeyDistributions[uint32](r, 1))
	gpuAggregate(t, gpu, r, i64Ops, gpuKeyDistributions[int64](r, 1<<32))
	gpuAggregate(t, gpu, r, u32Ops[:1], gpuKeyDistributions[uint8](r, 1))
}
