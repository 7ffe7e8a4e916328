package main

import (
	"bytes"
	"testing"

	"github.com/obsidian-go/obsidian/internal/gputest"
)

// TestGPUGridIsChecked measures every method of ours on every distribution
// on GPU 0 for a few key counts, among them one that is not a power of
// two: each first result is checked element by element against the host
// (fresh splitmix64 keys), so a pass means every cell of the grid sorts
// right; and the rows are those the method table promises.
func TestGPUGridIsChecked(t *testing.T) {
	g := gputest.Open(t)
	var progress bytes.Buffer
	b, err := newBench(g, minRuns, 11, &progress)
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	sizes := []int{1 << 10, 100_003, 1 << 20}
	rows, err := b.measure(sizes)
	if err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	want := 0
	for _, n := range sizes {
		for _, d := range distributions() {
			switch d := d.(type) {
			case *dist[uint32]:
				want += len(methodsTaking(d, n, ourMethods))
			case *dist[uint64]:
				want += len(methodsTaking(d, n, ourMethods))
			case *dist[float32]:
				want += len(methodsTaking(d, n, ourMethods))
			}
		}
	}
	if len(rows) != want {
		t.Errorf("%d rows, want %d", len(rows), want)
	}
	for _, r := range rows {
		if r.medianMS <= 0 || r.minMS > r.medianMS || r.medianMS > r.maxMS {
			t.Errorf("implausible timing %+v", r)
		}
	}
}
