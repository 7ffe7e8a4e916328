package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/runtime"
)

// tileSource is where tiledMultisplitKernel's blocks read their keys.
type tileSource int

const (
	fromGlobal      tileSource = iota // the input, unbounded in length
	fromShared                        // a copy in shared memory, of a constant bound: partial ranks kept
	fromHeld                          // the threads' registers (BlockMultisplitHeld)
	fromHeldAhead                     // the same, counters zeroed ahead (NewMultisplitCounters, BlockMultisplitHeldOn)
	fromHeldBlocked                   // the threads' registers, blocked (BlockMultisplitCounted)
	tileSources                       // the number of sources
)

var tileSourceNames = map[tileSource]string{fromGlobal: "global", fromShared: "shared", fromHeld: "held",
	fromHeldAhead:   "held, counters zeroed ahead",
	fromHeldBlocked: "held blocked"}

// tiledMultisplitKernel returns a kernel whose blocks each rank a tile of
// tile keys of the input (the last tile partial) with BlockMultisplit, or
// BlockMultisplitHeld or BlockMultisplitCounted from the keys held, as a
// radix sort pass does: the tile's keys sorted by digit (for held keys,
// Held.ScatterBy of HeldRanks), its Ranks and its Counts, each at the
// tile's place in the outputs. tile is a multiple of threads. Held keys of
// a full tile are held in a tile of constant length, as the radix sort's
// full tiles are.
func tiledMultisplitKernel(threads, bits, tile int, source tileSource) *dsl.Kernel {
	k := dsl.NewKernel("tiledMultisplit", threads)
	in := dsl.Input[uint32](k, "keys")
	sorted, ranks, counts := dsl.Output[uint32](k, "sorted"), dsl.Output[uint32](k, "ranks"),
		dsl.Output[uint32](k, "counts")
	size, digits := dsl.N(uint32(tile)), dsl.N(1<<bits)
	// split ranks the count keys of tile bid, from first.
	split := func(b *dsl.Block, bid, first, count dsl.U32) {
		keys := arrays.Take(count, arrays.Drop(first, arrays.FromArray(in)))
		at := func(out dsl.Array[uint32], base dsl.U32) arrays.Writer[uint32] {
			return func(t *dsl.Thread, i dsl.U32, v dsl.U32) { out.Store(t, base.Add(i), v) }
		}
		var m arrays.Multisplit
		switch source {
		case fromHeld:
			held := arrays.NewHeld[uint32](b, tile/threads, count)
			held.Load(b, keys)
			m = arrays.BlockMultisplitHeld(b, bits, held, digitOf)
			held.ScatterBy(m.HeldRanks(b)).Run(b, at(sorted, first))
		case fromHeldAhead:
			// The counters are zeroed before the keys load, and a barrier
			// after the load stands for the multisplit's own.
			counters := arrays.NewMultisplitCounters(b, bits)
			held := arrays.NewHeld[uint32](b, tile/threads, count)
			held.Load(b, keys)
			b.Sync()
			m = arrays.BlockMultisplitHeldOn(b, counters, held, digitOf)
			held.ScatterBy(m.HeldRanks(b)).Run(b, at(sorted, first))
		case fromHeldBlocked:
			held := arrays.NewHeldBlocked[uint32](b, tile/threads, count)
			held.Load(b, keys)
			m = arrays.BlockMultisplitCounted(b, bits, held, digitOf)
			held.ScatterBy(m.HeldRanks(b)).Run(b, at(sorted, first))
		case fromShared:
			keys = arrays.Take(count, arrays.Compute(b, arrays.Generate(size, func(i dsl.U32) dsl.U32 {
				return dsl.Select(i.Lt(count), in.At(first.Add(i)), dsl.N(0))
			})))
			fallthrough
		default:
			m = arrays.BlockMultisplit(b, bits, keys, digitOf)
			arrays.ScatterByRank(m.Ranks(), keys).Run(b, at(sorted, first))
		}
		m.Ranks().Run(b, at(ranks, first))
		arrays.ToPush[*dsl.Block](m.Counts()).Run(b, at(counts, bid.Mul(digits)))
	}
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.CeilDiv(in.Len(), size), func(b *dsl.Block, bid dsl.U32) {
			first := dsl.Let(b, bid.Mul(size)).Exp
			count := dsl.Let(b, size.Min(in.Len().Sub(first))).Exp
			if source != fromHeld && source != fromHeldAhead && source != fromHeldBlocked {
				split(b, bid, first, count)
				return
			}
			// Held keys of a full tile take a copy whose count is a constant
			// (no bound checks), as a radix sort pass does.
			b.IfElse(count.Eq(size), func(b *dsl.Block) { split(b, bid, first, size) },
				func(b *dsl.Block) { split(b, bid, first, count) })
		})
	})
	return k
}

// checkTiledMultisplit runs tiledMultisplitKernel on dev and compares it
// with the stable counting sort of every tile.
func checkTiledMultisplit(dev runtime.Device, threads, bits, tile int, source tileSource, keys []uint32) string {
	n := len(keys)
	tiles := (n + tile - 1) / tile
	got, err := run(dev, tiledMultisplitKernel(threads, bits, tile, source), keys, n, n, tiles<<bits)
	if err != nil {
		return err.Error()
	}
	var sorted, ranks, counts []uint32
	for first := 0; first < n; first += tile {
		r, s, c, _ := countingSort(keys[first:min(first+tile, n)], bits)
		sorted, ranks, counts = append(sorted, s...), append(ranks, r...), append(counts, c...)
	}
	return differ("sorted", got[0], sorted) + differ("ranks", got[1], ranks) + differ("counts", got[2], counts)
}

// TestGPUMultisplit compares BlockMultisplit on the GPU with the evaluator
// and with the stable counting sort of every tile, on fresh random keys:
// digits of 1 to 8 bits from every distribution, blocks of 32 to 1024
// threads, tiles of up to 16 keys per thread, in as many blocks as the
// keys need.
func TestGPUMultisplit(t *testing.T) {
	gpu := gputest.Open(t)
	r := rand.New(rand.NewPCG(freshSeed(t), 5))
	for bits := 1; bits <= arrays.MaxDigitBits; bits++ {
		threads := 32 << r.IntN(6)
		tile := threads * (1 + r.IntN(16))
		for j, n := range []int{1, tile - 1, tile + 1, 1 + r.IntN(1<<18)} {
			dist := distributions[r.IntN(len(distributions))]
			keys := digitKeys(r.Uint64(), n, bits, dist)
			tiles := (n + tile - 1) / tile
			source := tileSource((bits + j) % int(tileSources)) // every source for most widths and lengths
			if source == fromHeldBlocked && bits > arrays.MaxCountedBits {
				source = fromHeld
			}
			what := fmt.Sprintf("%s, %d keys by %d bits, %d threads, tiles of %d (keys in %s memory)", dist.name, n, bits,
				threads, tile, tileSourceNames[source])
			k := func() *dsl.Kernel { return tiledMultisplitKernel(threads, bits, tile, source) }
			sameOnBoth(t, gpu, k, what, keys, n, n, tiles<<bits)
			if d := checkTiledMultisplit(gpu, threads, bits, tile, source, keys); d != "" {
				t.Errorf("%s: %s", what, d)
			}
		}
	}
}

// TestGPUMultisplitOneBlock compares the one-block kernel of the laws
// (Ranks, ScatterByRank, Counts, Offsets) on the GPU with the counting
// sort, for the widest digits in the largest block.
func TestGPUMultisplitOneBlock(t *testing.T) {
	gpu := gputest.Open(t)
	r := rand.New(rand.NewPCG(freshSeed(t), 6))
	for _, dist := range distributions {
		n := 1 + r.IntN(1<<14)
		if msg := checkMultisplit(gpu, 1024, arrays.MaxDigitBits, digitKeys(r.Uint64(), n, arrays.MaxDigitBits, dist)); msg != "" {
			t.Errorf("%s: %s", dist.name, msg)
		}
	}
}
