package scan

import (
	"testing"

	"github.com/obsidian-go/obsidian/examples/internal/extest"
	"github.com/obsidian-go/obsidian/runtime"
)

// TestScan scans random inputs with the generated launcher and compares the
// per-chunk prefix sums and totals with Go's.
func TestScan(t *testing.T) {
	r := extest.Rand(t)
	extest.OnDevices(t, func(t *testing.T, dev runtime.Device) {
		for _, n := range []int{1, Chunk, 4*Chunk + 100, 1 + r.Intn(20*Chunk)} {
			in := make([]uint32, n)
			want := make([]uint32, n)
			wantTotals := make([]uint32, (n+Chunk-1)/Chunk)
			for i := range in {
				in[i] = r.Uint32() % 1000
				wantTotals[i/Chunk] += in[i]
				want[i] = wantTotals[i/Chunk]
			}
			out := extest.Alloc[uint32](t, dev, n)
			totals := extest.Alloc[uint32](t, dev, len(wantTotals))
			if err := Scan(dev, runtime.LaunchConfig{}, extest.Upload(t, dev, in), out, totals); err != nil {
				t.Fatal(err)
			}
			got, gotTotals := extest.Download(t, out), extest.Download(t, totals)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("n=%d: output[%d] = %d, want %d", n, i, got[i], want[i])
				}
			}
			for i := range wantTotals {
				if gotTotals[i] != wantTotals[i] {
					t.Fatalf("n=%d: totals[%d] = %d, want %d", n, i, gotTotals[i], wantTotals[i])
				}
			}
		}
	})
}
