package scan_test

import (
	goruntime "runtime"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/scan"
)

// TestTilesByBlockAnyGrid launches, on the CPU device, the scan kernel of
// a shape with TilesByBlock on a state whose tile counter starts past 0,
// with a block per tile (tile i in block i), more blocks than tiles, and
// fewer (the tiles taken from the counter), and checks that each computes
// the sequential scan and leaves the counter raised by the number of
// tiles, as without the option. The evaluator runs two blocks at once, so
// that taking tile i in block i of a grid of fewer blocks than tiles would
// wait for ever.
func TestTilesByBlockAnyGrid(t *testing.T) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(2))
	checkTilesByBlock(t, runtime.CPU(),
		arrays.DeviceScanShape{Threads: 64, PerThread: 8, FullTiles: true, Vector: true, TilesByBlock: true}, 10, 1)
}

// TestGPUTilesByBlockAnyGrid is TestTilesByBlockAnyGrid on the GPU, with
// the shapes of New's small and large scans, over 300 tiles of fresh
// random data.
func TestGPUTilesByBlockAnyGrid(t *testing.T) {
	g := gputest.Open(t)
	for _, n := range []uint32{0, scan.MaxLen} {
		shape := arrays.DeviceScanShapeFor(n)
		shape.Vector = true
		checkTilesByBlock(t, g, shape, 300, uint64(time.Now().UnixNano()))
	}
}

// checkTilesByBlock launches on dev the exclusive scan kernel of shape
// (with TilesByBlock) over tiles tiles, the last one partial, with as many
// blocks as tiles, more, and fewer, on random data from seed, and checks
// the result and the tile counter after each.
func checkTilesByBlock(t *testing.T, dev runtime.Device, shape arrays.DeviceScanShape, tiles int, seed uint64) {
	t.Logf("seed %d", seed)
	o := operators[3] // compose: not commutative
	k, err := arrays.DeviceScanKernelShaped("byBlock", o.op, dslLit(o.identity), true, shape).Build()
	if err != nil {
		t.Fatal(err)
	}
	fn, err := dev.Load(k)
	if err != nil {
		t.Fatal(err)
	}
	const base = 77
	n := (tiles-1)*shape.Tile() + 13
	for _, blocks := range []int{tiles, tiles + 3, 3, 1} {
		xs := randomWords(n, seed+uint64(blocks), o)
		in, err := runtime.FromSlice(dev, xs)
		if err != nil {
			t.Fatal(err)
		}
		out, err := runtime.Alloc[uint32](dev, n)
		if err != nil {
			t.Fatal(err)
		}
		words := make([]uint64, shape.StateLen(uint32(n)))
		words[0] = base
		state, err := runtime.FromSlice(dev, words)
		if err != nil {
			t.Fatal(err)
		}
		if err := dev.Launch(fn, runtime.LaunchConfig{Blocks: blocks}, in, out, state, uint32(1),
			uint64(base)); err != nil {
			t.Fatalf("%d blocks: %v", blocks, err)
		}
		got, err := out.ToSlice()
		if err != nil {
			t.Fatal(err)
		}
		if d := firstDifference(got, sequential(o, scan.Exclusive, xs)); d != "" {
			t.Errorf("%d blocks: %s", blocks, d)
		}
		after, err := state.ToSlice()
		if err != nil {
			t.Fatal(err)
		}
		if after[0] != base+uint64(tiles) {
			t.Errorf("%d blocks: the tile counter went from %d to %d, want %d", blocks, base, after[0],
				base+uint64(tiles))
		}
		for _, b := range []interface{ Free() error }{in, out, state} {
			if err := b.Free(); err != nil {
				t.Fatal(err)
			}
		}
	}
}
