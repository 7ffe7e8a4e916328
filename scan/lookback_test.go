package scan_test

import (
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/scan"
)

// TestLookBackWalksPastWindowsOfAggregates starts the scan kernel with the
// first tiles already published, tile 0 with its inclusive prefix and the
// next ones with their aggregates only, and the tile counter past them, so
// that the first tile scanned looks back over three windows of 32 status
// words before it finds an inclusive prefix (which on the CPU, where
// blocks run almost in order, the look-back seldom has to). The operator
// is the composition of functions, which is not commutative, so every
// aggregate must be combined in order. The launch is a later one on its
// state: its epoch is not the first, the tile counter starts at a base
// past 0, and the status words of the tiles it scans hold words of the
// epoch before, inclusive prefixes of other values, which it must take as
// not yet published.
func TestLookBackWalksPastWindowsOfAggregates(t *testing.T) {
	const published, tiles = 66, 67
	const epoch, base = 9, 1000
	tile := arrays.DeviceScanTile
	o := operators[3] // compose
	k, err := arrays.DeviceScanKernel("lookBack", o.op, dslLit(o.identity), false).Build()
	if err != nil {
		t.Fatal(err)
	}
	dev := runtime.CPU()
	fn, err := dev.Load(k)
	if err != nil {
		t.Fatal(err)
	}
	xs := randomWords(tiles*tile, 12345, o)
	want := sequential(o, scan.Inclusive, xs)
	// The tickets the counter hands out go past the last tile (the kernel
	// takes one per tile, starting from published): their status words
	// are in the state too, and their tiles hold nothing to write.
	words := make([]uint64, 1+tiles+published)
	words[0] = base + published
	for tl := 0; tl < published; tl++ {
		total := o.identity
		for _, x := range xs[tl*tile : (tl+1)*tile] {
			total = o.do(total, x)
		}
		flag := uint64(2*epoch + 1) // aggregate
		if tl == 0 {
			flag = 2*epoch + 2 // inclusive
		}
		words[1+tl] = flag<<32 | uint64(total)
	}
	for tl := published; tl < len(words)-1; tl++ {
		words[1+tl] = uint64(2*(epoch-1)+2)<<32 | uint64(permutations[tl%len(permutations)])
	}
	in, err := runtime.FromSlice(dev, xs)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Free()
	out, err := runtime.Alloc[uint32](dev, len(xs))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Free()
	state, err := runtime.FromSlice(dev, words)
	if err != nil {
		t.Fatal(err)
	}
	defer state.Free()
	if err := dev.Launch(fn, runtime.LaunchConfig{Blocks: 3}, in, out, state, uint32(epoch),
		uint64(base)); err != nil {
		t.Fatal(err)
	}
	got, err := out.ToSlice()
	if err != nil {
		t.Fatal(err)
	}
	from := published * tile
	if d := firstDifference(got[from:], want[from:]); d != "" {
		t.Errorf("tiles from %d: %s (indices from %d)", published, d, from)
	}
}
