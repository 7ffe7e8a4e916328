package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
)

// oneThreadRounds is how many times oneThreadKernel's blocks call
// OneThread per tile, in a block-level loop.
const oneThreadRounds = 3

// oneThreadKernel: each tile of a grid loop over in's tiles, in each of
// oneThreadRounds rounds of a block-level loop, takes a ticket from
// counter[0] by OneThread and writes ticket ^ in[tile] to the round's 64
// outputs, with no other barrier in either loop.
func oneThreadKernel() *dsl.Kernel {
	const threads = 64
	k := dsl.NewKernel("oneThread", threads)
	in := dsl.Input[uint32](k, "in")
	out := dsl.Output[uint32](k, "out")
	counter := dsl.InOut[uint32](k, "counter")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(in.Len(), func(b *dsl.Block, tile dsl.U32) {
			b.For(dsl.N(oneThreadRounds), func(b *dsl.Block, round dsl.U32) {
				v := arrays.OneThread(b, func(t *dsl.Thread) dsl.U32 {
					return counter.Fetch(t, dsl.AtomicAdd, dsl.N(0), dsl.N(1)).Xor(in.At(tile))
				})
				row := tile.Mul(dsl.N(oneThreadRounds)).Add(round)
				b.ForAll(dsl.N(threads), func(t *dsl.Thread, i dsl.U32) { out.Store(t, row.Mul(dsl.N(threads)).Add(i), v) })
			})
		})
	})
	return k
}

// checkOneThread runs oneThreadKernel over tiles tiles in a grid of blocks
// blocks (0: one per tile) on dev, and checks OneThread's law: every
// thread of a tile sees in each round the value its one thread computed,
// and that thread ran once per round (the tickets are 0 to
// tiles×oneThreadRounds-1, each once).
func checkOneThread(dev runtime.Device, tiles, blocks int, seed uint64) string {
	where := fmt.Sprintf("%d tiles in %d blocks: ", tiles, blocks)
	kernel, err := oneThreadKernel().Build()
	if err != nil {
		return where + err.Error()
	}
	fn, err := dev.Load(kernel)
	if err != nil {
		return where + err.Error()
	}
	r := rand.New(rand.NewPCG(seed, 0x1e))
	xs := make([]uint32, tiles)
	for i := range xs {
		xs[i] = r.Uint32()
	}
	in, err := runtime.FromSlice(dev, xs)
	if err != nil {
		return where + err.Error()
	}
	defer in.Free()
	out, err := runtime.Alloc[uint32](dev, 64*oneThreadRounds*tiles)
	if err != nil {
		return where + err.Error()
	}
	defer out.Free()
	counter, err := runtime.FromSlice(dev, []uint32{0})
	if err != nil {
		return where + err.Error()
	}
	defer counter.Free()
	if err := dev.Launch(fn, runtime.LaunchConfig{Blocks: blocks}, in, out, counter); err != nil {
		return where + err.Error()
	}
	got, err := out.ToSlice()
	if err != nil {
		return where + err.Error()
	}
	tickets := make([]uint32, oneThreadRounds*tiles)
	for j := range tickets {
		row, tile := got[64*j:][:64], j/oneThreadRounds
		if i := slices.IndexFunc(row, func(v uint32) bool { return v != row[0] }); i >= 0 {
			return where + fmt.Sprintf("tile %d, round %d: thread %d saw %d, thread 0 %d", tile, j%oneThreadRounds, i,
				row[i], row[0])
		}
		tickets[j] = row[0] ^ xs[tile]
	}
	slices.Sort(tickets)
	for i, ticket := range tickets {
		if ticket != uint32(i) {
			return where + fmt.Sprintf("the sorted tickets hold %d at %d: the one thread did not run once per round", ticket, i)
		}
	}
	return ""
}

// TestOneThreadLaw checks OneThread on the CPU evaluator with a block per
// tile and in grid loops of fewer blocks, where the shared word is reused
// from one round and one tile to the next.
func TestOneThreadLaw(t *testing.T) {
	seed := proptest.Seed(t)
	for _, c := range []struct{ tiles, blocks int }{{1, 0}, {37, 0}, {37, 1}, {37, 5}} {
		if d := checkOneThread(runtime.CPU(), c.tiles, c.blocks, seed); d != "" {
			t.Error(d)
		}
	}
}

// TestGPUOneThreadLaw checks OneThread's law on the GPU.
func TestGPUOneThreadLaw(t *testing.T) {
	gpu := gputest.Open(t)
	seed := freshSeed(t)
	for _, c := range []struct{ tiles, blocks int }{{1, 0}, {5000, 0}, {5000, 7}, {5000, 264}} {
		if d := checkOneThread(gpu, c.tiles, c.blocks, seed); d != "" {
			t.Error(d)
		}
	}
}
