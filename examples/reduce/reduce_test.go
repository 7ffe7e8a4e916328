package reduce

import (
	"testing"

	"github.com/obsidian-go/obsidian/examples/internal/extest"
	"github.com/obsidian-go/obsidian/runtime"
)

// TestReduce checks the partial sums of random inputs, and Sum, against Go.
func TestReduce(t *testing.T) {
	r := extest.Rand(t)
	extest.OnDevices(t, func(t *testing.T, dev runtime.Device) {
		for _, n := range []int{1, Chunk, 5*Chunk + 3, 1 + r.Intn(300*Chunk)} {
			in := make([]uint32, n)
			want := make([]uint32, (n+Chunk-1)/Chunk)
			var total uint32
			for i := range in {
				in[i] = r.Uint32()
				want[i/Chunk] += in[i]
				total += in[i]
			}
			buf := extest.Upload(t, dev, in)
			sums := extest.Alloc[uint32](t, dev, len(want))
			if err := Reduce(dev, runtime.LaunchConfig{}, buf, sums); err != nil {
				t.Fatal(err)
			}
			got := extest.Download(t, sums)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("n=%d: sums[%d] = %d, want %d", n, i, got[i], want[i])
				}
			}
			if s, err := Sum(dev, buf); err != nil || s != total {
				t.Fatalf("n=%d: Sum = %d, %v; want %d", n, s, err, total)
			}
		}
	})
}
