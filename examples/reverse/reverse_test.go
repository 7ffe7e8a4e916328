package reverse

import (
	"testing"

	"github.com/obsidian-go/obsidian/examples/internal/extest"
	"github.com/obsidian-go/obsidian/runtime"
)

// TestReverse reverses random inputs of no, partial, whole and many chunks
// with the generated launcher and checks the output is the exact reverse.
func TestReverse(t *testing.T) {
	r := extest.Rand(t)
	extest.OnDevices(t, func(t *testing.T, dev runtime.Device) {
		for _, n := range []int{0, 1, 10, Chunk - 1, Chunk, Chunk + 1, 300, 3*Chunk + 17, 100_000, 1 + r.Intn(10*Chunk)} {
			in := make([]uint32, n)
			for i := range in {
				in[i] = r.Uint32()
			}
			out := extest.Alloc[uint32](t, dev, n)
			if err := Reverse(dev, runtime.LaunchConfig{}, extest.Upload(t, dev, in), out); err != nil {
				t.Fatal(err)
			}
			got := extest.Download(t, out)
			for i := range in {
				if got[i] != in[n-1-i] {
					t.Fatalf("n=%d: output[%d] = %d, want input[%d] = %d", n, i, got[i], n-1-i, in[n-1-i])
				}
			}
		}
	})
}
