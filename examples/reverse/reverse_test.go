package reverse

import (
	"testing"

	"github.com/obsidian-go/obsidian/examples/internal/extest"
	"github.com/obsidian-go/obsidian/runtime"
)

// reversed is the kernel's result computed in Go: each chunk of the input
// padded with zeros to a whole chunk, reversed, cut to the input's length.
func reversed(in []uint32) []uint32 {
	out := make([]uint32, len(in))
	for i := range out {
		j := i/Chunk*Chunk + Chunk - 1 - i%Chunk
		if j < len(in) {
			out[i] = in[j]
		}
	}
	return out
}

// TestReverse reverses random inputs of whole and partial chunks with the
// generated launcher and compares with Go.
func TestReverse(t *testing.T) {
	r := extest.Rand(t)
	extest.OnDevices(t, func(t *testing.T, dev runtime.Device) {
		for _, n := range []int{1, Chunk, 3*Chunk + 17, 1 + r.Intn(10*Chunk)} {
			in := make([]uint32, n)
			for i := range in {
				in[i] = r.Uint32()
			}
			out := extest.Alloc[uint32](t, dev, n)
			if err := Reverse(dev, runtime.LaunchConfig{}, extest.Upload(t, dev, in), out); err != nil {
				t.Fatal(err)
			}
			got, want := extest.Download(t, out), reversed(in)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("n=%d: output[%d] = %d, want %d", n, i, got[i], want[i])
				}
			}
		}
	})
}
