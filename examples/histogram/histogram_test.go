package histogram

import (
	"testing"

	"github.com/obsidian-go/obsidian/examples/internal/extest"
	"github.com/obsidian-go/obsidian/runtime"
)

// TestHistogram counts random keys into a random number of bins with the
// generated launcher and compares with Go's counts.
func TestHistogram(t *testing.T) {
	r := extest.Rand(t)
	extest.OnDevices(t, func(t *testing.T, dev runtime.Device) {
		for _, c := range []struct{ keys, bins int }{{1, 1}, {1000, 7}, {5000, 256}, {1 + r.Intn(20000), 1 + r.Intn(600)}} {
			keys := make([]uint32, c.keys)
			want := make([]uint32, c.bins)
			for i := range keys {
				keys[i] = r.Uint32() % uint32(3*c.bins)
				want[keys[i]%uint32(c.bins)]++
			}
			bins := extest.Alloc[uint32](t, dev, c.bins)
			if err := Histogram(dev, runtime.LaunchConfig{}, extest.Upload(t, dev, keys), bins); err != nil {
				t.Fatal(err)
			}
			got := extest.Download(t, bins)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%d keys: bins[%d] = %d, want %d", c.keys, i, got[i], want[i])
				}
			}
		}
	})
}
