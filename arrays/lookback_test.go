package arrays_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
)

// lookBackKernel returns the kernel whose every block takes a tile with
// NextTile (from counter[epoch]), or with byBlock BlockTile, looks back over the width-element
// vectors of aggs (tile t's at t*width) under op, reading window tiles at
// once, and writes the result at the same place of out. It takes the
// tiles after the first published ones (a parameter), which it leaves
// alone. Seeded, the tiles come after the vector lookBackSeed
// (LookBackFrom); split, the same published by LookBackPublish and walked
// by Prefixes after a barrier. With byBlock, published must be 0.
func lookBackKernel(threads, width, window int, op arrays.Op[uint32], identity dsl.U32, mode lookBackMode,
	byBlock bool) *dsl.Kernel {
	k := dsl.NewKernel("lookBack", threads)
	aggs := dsl.Input[uint32](k, "aggs")
	out := dsl.Output[uint32](k, "out")
	status := dsl.InOut[uint64](k, "status")
	counter := dsl.InOut[uint32](k, "counter")
	epoch := dsl.Param[uint32](k, "epoch")
	published := dsl.Param[uint32](k, "published")
	w := dsl.N(uint32(width))
	k.Body(func(g *dsl.Grid) {
		tiles := aggs.Len().Div(w).Sub(published)
		g.ForAllBlocks(tiles, func(b *dsl.Block, bid dsl.U32) {
			var tile dsl.U32
			if byBlock {
				tile = arrays.BlockTile(b, bid, tiles, counter, epoch)
			} else {
				tile = arrays.NextTile(b, counter, epoch)
			}
			mine := arrays.Generate(w, func(i dsl.U32) dsl.U32 { return aggs.At(tile.Mul(w).Add(i)) })
			seed := arrays.Generate(w, func(i dsl.U32) dsl.U32 { return i.Mul(dsl.N(lookBackSeedMul)).Add(dsl.N(lookBackSeedAdd)) })
			var before arrays.Pull[uint32]
			switch mode {
			case plain:
				before = arrays.LookBackWindow(b, op, identity, status, epoch, tile, mine, window)
			case seeded:
				before = arrays.LookBackFrom(b, op, identity, seed, status, epoch, tile, mine, window)
			case split:
				published := arrays.LookBackPublish(b, op, identity, seed, status, epoch, tile, mine)
				b.Sync()
				before = published.Prefixes(b, window)
			}
			b.ForAll(w, func(t *dsl.Thread, i dsl.U32) { out.Store(t, tile.Mul(w).Add(i), before.At(i)) })
		})
	})
	return k
}

// lookBackMode is the way lookBackKernel looks back.
type lookBackMode int

const (
	plain  lookBackMode = iota // LookBackWindow
	seeded                     // LookBackFrom
	split                      // LookBackPublish, then Prefixes
)

// lookBackSeedMul and lookBackSeedAdd make element i of the seed of the
// seeded look-back kernel: i × lookBackSeedMul + lookBackSeedAdd.
const lookBackSeedMul, lookBackSeedAdd = 2654435761, 0x9e37

// lookBackWant is LookBack's law: element i of tile t is the combination
// of element i of every tile before t, from identity, or with seeded from
// element i of the seed.
func lookBackWant(aggs []uint32, width int, op func(a, b uint32) uint32, identity uint32, mode lookBackMode) []uint32 {
	want := make([]uint32, len(aggs))
	for i := range width {
		acc := identity
		if mode != plain {
			acc = uint32(i)*lookBackSeedMul + lookBackSeedAdd
		}
		for t := 0; t*width < len(aggs); t++ {
			want[t*width+i] = acc
			acc = op(acc, aggs[t*width+i])
		}
	}
	return want
}

// lookBackCase is a run of the look-back kernel: several epochs on one
// state, zeroed once. With byBlock its blocks take their tiles by
// BlockTile, in a grid of blocks blocks (0: one per tile).
type lookBackCase struct {
	threads, width, window, tiles, epochs int
	seed                                  uint64
	mode                                  lookBackMode
	byBlock                               bool
	blocks                                int
}

// check runs the case on dev and returns what differs from the law, or "".
func (c lookBackCase) check(dev runtime.Device, opName string, op arrays.Op[uint32], goOp func(a, b uint32) uint32, identity uint32) string {
	where := fmt.Sprintf("LookBack under %s, %d threads, width %d, window %d, %d tiles, mode %d, by block %v in %d blocks: ",
		opName, c.threads, c.width, c.window, c.tiles, c.mode, c.byBlock, c.blocks)
	kernel, err := lookBackKernel(c.threads, c.width, c.window, op, dsl.Lit(identity), c.mode, c.byBlock).Build()
	if err != nil {
		return where + err.Error()
	}
	fn, err := dev.Load(kernel)
	if err != nil {
		return where + err.Error()
	}
	status, err := runtime.Alloc[uint64](dev, c.tiles*c.width)
	if err != nil {
		return where + err.Error()
	}
	defer status.Free()
	counter, err := runtime.Alloc[uint32](dev, c.epochs)
	if err != nil {
		return where + err.Error()
	}
	defer counter.Free()
	if err := errors.Join(status.Fill(0), counter.Fill(0)); err != nil {
		return where + err.Error()
	}
	r := rand.New(rand.NewPCG(c.seed, 0x100b))
	for epoch := range c.epochs {
		aggs := make([]uint32, c.tiles*c.width)
		for i := range aggs {
			aggs[i] = r.Uint32N(1 << 20)
		}
		in, err := runtime.FromSlice(dev, aggs)
		if err != nil {
			return where + err.Error()
		}
		out, err := runtime.Alloc[uint32](dev, len(aggs))
		if err != nil {
			in.Free()
			return where + err.Error()
		}
		err = dev.Launch(fn, runtime.LaunchConfig{Blocks: c.blocks}, in, out, status, counter, uint32(epoch), uint32(0))
		var got []uint32
		if err == nil {
			got, err = out.ToSlice()
		}
		in.Free()
		out.Free()
		if err != nil {
			return where + err.Error()
		}
		if d := differ(fmt.Sprintf("epoch %d", epoch), got, lookBackWant(aggs, c.width, goOp, identity, c.mode)); d != "" {
			return where + d
		}
	}
	counts, err := counter.ToSlice()
	if err != nil {
		return where + err.Error()
	}
	for epoch, n := range counts {
		if n != uint32(c.tiles) {
			return where + fmt.Sprintf("the tile counter of epoch %d ends at %d, want %d", epoch, n, c.tiles)
		}
	}
	return ""
}

// TestLookBackLaw checks LookBackWindow against its law on the CPU
// evaluator: random aggregates, vectors wider and narrower than the block,
// one tile and several, windows of 1 (LookBack) to more tiles than there
// are, three epochs on a state zeroed once (so that the words an earlier
// epoch left count as unpublished), under Add, Max and affine (not
// commutative); with and without a seed (LookBackFrom), and published
// then walked (LookBackPublish, Prefixes); tiles from NextTile, and from
// BlockTile in a grid of a block per tile or of fewer blocks.
func TestLookBackLaw(t *testing.T) {
	dev := runtime.CPU()
	params := proptest.Parameters(t, 12)
	props := gopter.NewProperties(params)
	props.Property("LookBack is the exclusive scan of each element over the tiles", prop.ForAll(
		func(threads, width, window, tiles int, seed uint64, mode, order int) string {
			c := lookBackCase{threads: threads, width: width, window: window, tiles: tiles, epochs: 3, seed: seed,
				mode: lookBackMode(mode), byBlock: order > 0, blocks: max(order-1, 0)}
			if d := c.check(dev, "Add", dsl.U32.Add, func(a, b uint32) uint32 { return a + b }, 0); d != "" {
				return d
			}
			if d := c.check(dev, "Max", dsl.U32.Max, func(a, b uint32) uint32 { return max(a, b) }, 0); d != "" {
				return d
			}
			return c.check(dev, "affine", affine, affineGo, 1<<16)
		},
		gen.IntRange(1, 2).Map(func(w int) int { return 32 * w }), gen.IntRange(1, 100), gen.IntRange(1, 12),
		gen.IntRange(1, 9), gen.UInt64(), gen.IntRange(int(plain), int(split)),
		// order: 0 NextTile, 1 BlockTile with a block per tile, k > 1
		// BlockTile with k-1 blocks.
		gen.IntRange(0, 4)))
	props.TestingRun(t)
}

// TestBlockTileInAGridOfFewerBlocks runs the look-back kernel with
// tiles from BlockTile in a grid of fewer blocks than tiles, and more
// blocks than the evaluator runs at once (two workers): taking tile bid
// there would have a running block wait for a tile of a block that has
// not started, which never comes (the evaluator reports the deadlock).
func TestBlockTileInAGridOfFewerBlocks(t *testing.T) {
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(2))
	c := lookBackCase{threads: 32, width: 32, window: 1, tiles: 40, epochs: 2, seed: 7, mode: plain, byBlock: true,
		blocks: 5}
	if d := c.check(runtime.CPU(), "affine", affine, affineGo, 1<<16); d != "" {
		t.Error(d)
	}
}

// TestLookBackWindowOutOfRange checks that a window of 0 or past
// MaxLookBackWindow is an error naming it.
func TestLookBackWindowOutOfRange(t *testing.T) {
	for _, window := range []int{0, arrays.MaxLookBackWindow + 1} {
		_, err := lookBackKernel(32, 32, window, dsl.U32.Add, dsl.N(0), plain, false).Build()
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("a window of %d tiles", window)) {
			t.Errorf("window %d: %v", window, err)
		}
	}
}

// TestLookBackWalksOverAggregates checks LookBackWindow where the tiles
// before those the launch takes have published only their aggregates
// (tile 0 its inclusive prefix), as blocks still at work would: the host
// writes their words and starts the tile counter past them, so that each
// block walks back over them, window by window, to tile 0 or to a later
// tile's inclusive prefix, under Add and affine (not commutative).
func TestLookBackWalksOverAggregates(t *testing.T) {
	dev := runtime.CPU()
	r := rand.New(rand.NewPCG(rand.Uint64(), 0x100c))
	const width, epoch = 32, 2
	aggregateFlag, inclusiveFlag := uint64(2*epoch+1), uint64(2*epoch+2)
	for _, op := range []struct {
		name     string
		op       arrays.Op[uint32]
		goOp     func(a, b uint32) uint32
		identity uint32
	}{
		{"Add", dsl.U32.Add, func(a, b uint32) uint32 { return a + b }, 0},
		{"affine", affine, affineGo, 1 << 16},
	} {
		for _, window := range []int{1, 2, 3, 8, 12} {
			for _, published := range []int{1, 5, 17} {
				tiles := published + 3
				where := fmt.Sprintf("%s, window %d, %d tiles published before the launch", op.name, window, published)
				kernel, err := lookBackKernel(width, width, window, op.op, dsl.Lit(op.identity), plain, false).Build()
				if err != nil {
					t.Fatal(err)
				}
				fn, err := dev.Load(kernel)
				if err != nil {
					t.Fatal(err)
				}
				aggs := make([]uint32, tiles*width)
				for i := range aggs {
					aggs[i] = r.Uint32()
				}
				words := make([]uint64, tiles*width)
				for tile := range published {
					flag := aggregateFlag
					if tile == 0 {
						flag = inclusiveFlag
					}
					for i := range width {
						words[tile*width+i] = flag<<32 | uint64(aggs[tile*width+i])
					}
				}
				counter := make([]uint32, epoch+1)
				counter[epoch] = uint32(published)
				got, err := runLookBack(dev, fn, aggs, words, counter, uint32(published), epoch)
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				want := lookBackWant(aggs, width, op.goOp, op.identity, plain)
				if d := differ(where, got[published*width:], want[published*width:]); d != "" {
					t.Error(d)
				}
			}
		}
	}
}

// runLookBack launches fn of lookBackKernel on the given aggregates,
// status words and tile counters, and returns its output.
func runLookBack(dev runtime.Device, fn runtime.Function, aggs []uint32, words []uint64, counter []uint32,
	published, epoch uint32) ([]uint32, error) {
	in, err := runtime.FromSlice(dev, aggs)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	status, err := runtime.FromSlice(dev, words)
	if err != nil {
		return nil, err
	}
	defer status.Free()
	tiles, err := runtime.FromSlice(dev, counter)
	if err != nil {
		return nil, err
	}
	defer tiles.Free()
	out, err := runtime.Alloc[uint32](dev, len(aggs))
	if err != nil {
		return nil, err
	}
	defer out.Free()
	if err := dev.Launch(fn, runtime.LaunchConfig{}, in, out, status, tiles, epoch, published); err != nil {
		return nil, err
	}
	return out.ToSlice()
}

// TestGPULookBackLaw checks LookBackWindow, LookBackFrom and
// LookBackPublish with Prefixes against their law on the GPU, on fresh
// random aggregates: from one tile to thousands in flight at once, windows
// of 1 and 4 tiles, three epochs on a state zeroed once, tiles from
// NextTile and from BlockTile (a block per tile, and 100 blocks), under
// Add and affine (not commutative).
func TestGPULookBackLaw(t *testing.T) {
	gpu := gputest.Open(t)
	r := rand.New(rand.NewPCG(freshSeed(t), 3))
	for _, mode := range []lookBackMode{plain, seeded, split} {
		for _, c := range []lookBackCase{
			{threads: 256, width: 256, window: 1, tiles: 1},
			{threads: 256, width: 256, window: 4, tiles: 7},
			{threads: 256, width: 256, window: 1, tiles: 3000},
			{threads: 256, width: 256, window: 4, tiles: 3000},
			{threads: 64, width: 100, window: 2, tiles: 1000},
			{threads: 256, width: 256, window: 4, tiles: 3000, byBlock: true},
			{threads: 64, width: 100, window: 2, tiles: 1000, byBlock: true, blocks: 100},
		} {
			c.epochs, c.seed, c.mode = 3, r.Uint64(), mode
			if d := c.check(gpu, "Add", dsl.U32.Add, func(a, b uint32) uint32 { return a + b }, 0); d != "" {
				t.Error(d)
			}
			if d := c.check(gpu, "affine", affine, affineGo, 1<<16); d != "" {
				t.Error(d)
			}
		}
	}
}
