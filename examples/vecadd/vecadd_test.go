package vecadd

import (
	"testing"

	"github.com/obsidian-go/obsidian/examples/internal/extest"
	"github.com/obsidian-go/obsidian/runtime"
)

// TestVecadd adds random vectors of several lengths (a partial block, many
// blocks, none) with the generated launcher and compares with Go's sums.
func TestVecadd(t *testing.T) {
	r := extest.Rand(t)
	extest.OnDevices(t, func(t *testing.T, dev runtime.Device) {
		for _, n := range []int{0, 1, 255, 1000, 1 + r.Intn(5000)} {
			a, b, want := make([]float32, n), make([]float32, n), make([]float32, n)
			for i := range a {
				a[i], b[i] = r.Float32()*100-50, r.Float32()*100-50
				want[i] = a[i] + b[i]
			}
			da, db := extest.Upload(t, dev, a), extest.Upload(t, dev, b)
			sum := extest.Alloc[float32](t, dev, n)
			if err := Vecadd(dev, runtime.LaunchConfig{}, da, db, sum); err != nil {
				t.Fatal(err)
			}
			got := extest.Download(t, sum)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("n=%d: sum[%d] = %v, want %v", n, i, got[i], want[i])
				}
			}
		}
	})
}
