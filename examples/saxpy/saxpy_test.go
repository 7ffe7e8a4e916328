package saxpy

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/runtime"
)

// testRand returns a random source whose seed is logged; OBSIDIAN_SEED
// replays a run.
func testRand(t *testing.T) *rand.Rand {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("OBSIDIAN_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("OBSIDIAN_SEED=%q: %v", s, err)
		}
	}
	t.Logf("seed %d (replay with OBSIDIAN_SEED=%d)", seed, seed)
	return rand.New(rand.NewPCG(seed, seed))
}

// checkAxpy runs Axpy on dev for random data of several lengths and
// compares every element with Go's a*x + y. The values are small integers,
// whose products and sums float32 holds exactly, so a GPU's fused
// multiply-add gives the same result.
func checkAxpy(t *testing.T, dev runtime.Device) {
	r := testRand(t)
	for _, n := range []int{1, 255, 256, 1000, 1 + r.IntN(100_000)} {
		a := float32(r.IntN(200) - 100)
		x, y := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y[i] = float32(r.IntN(2000)-1000), float32(r.IntN(2000)-1000)
		}
		got, err := Axpy(dev, a, x, y)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		for i := range x {
			if want := a*x[i] + y[i]; got[i] != want {
				t.Fatalf("n=%d, a=%v: element %d is %v, want %v*%v + %v = %v", n, a, i, got[i], a, x[i], y[i], want)
			}
		}
	}
	if _, err := Axpy(dev, 1, make([]float32, 3), make([]float32, 4)); err == nil {
		t.Error("no error for x and y of different lengths")
	}
}

// TestAxpy runs the generated launcher on the CPU evaluator.
func TestAxpy(t *testing.T) { checkAxpy(t, runtime.CPU()) }

// TestAxpyGPU runs the generated launcher on GPU 0, skipped where there is
// none.
func TestAxpyGPU(t *testing.T) {
	gpu, err := runtime.Open(0)
	if err != nil {
		t.Skip(err)
	}
	defer gpu.Close()
	checkAxpy(t, gpu)
}
