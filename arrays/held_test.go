package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// heldKernel returns a kernel whose blocks each hold a tile of per keys per
// thread of the input (the last tile partial; blocked or warp-striped)
// across a barrier, then write
// it out twice: each element at its own place through ScatterBy of the
// identity ranks, and, in a ForAll over twice the block's threads, the
// first slot of each thread (Slot 0) read by iterations i and i + threads
// (both run by thread i), plus the iteration; and a third time in order
// through Push.
func heldKernel(threads, per int, blocked bool) *dsl.Kernel {
	newHeld := arrays.NewHeld[uint32]
	if blocked {
		newHeld = arrays.NewHeldBlocked[uint32]
	}
	k := dsl.NewKernel("held", threads)
	in := dsl.Input[uint32](k, "input")
	same, twice, pushed := dsl.Output[uint32](k, "same"), dsl.Output[uint32](k, "twice"), dsl.Output[uint32](k, "pushed")
	tile := dsl.N(uint32(threads * per))
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.CeilDiv(in.Len(), tile), func(b *dsl.Block, bid dsl.U32) {
			first := dsl.Let(b, bid.Mul(tile))
			count := tile.Min(in.Len().Sub(first.Exp))
			keys := newHeld(b, per, count)
			keys.Load(b, arrays.Drop(first.Exp, arrays.FromArray(in)))
			positions := newHeld(b, per, count)
			positions.Load(b, arrays.Generate(count, func(i dsl.U32) dsl.U32 { return i }))
			b.Sync()
			keys.ScatterBy(positions).Run(b, func(t *dsl.Thread, i dsl.U32, v dsl.U32) { same.Store(t, first.Add(i), v) })
			keys.Push().Run(b, func(t *dsl.Thread, i dsl.U32, v dsl.U32) { pushed.Store(t, first.Add(i), v) })
			// Slot 0 of thread i is element 32·per·warp + lane, or per·i
			// held blocked.
			b.ForAll(dsl.N(uint32(2*threads)), func(t *dsl.Thread, i dsl.U32) {
				at := dsl.Let(t, bid.Mul(dsl.N(uint32(2*threads))).Add(i))
				t.If(at.Lt(twice.Len()), func(t *dsl.Thread) { twice.Store(t, at.Exp, keys.Slot(0).Add(i)) })
			})
		})
	})
	return k
}

// heldWant returns what heldKernel writes for in.
func heldWant(threads, per int, blocked bool, in []uint32) (same, twice []uint32) {
	tile := threads * per
	tiles := (len(in) + tile - 1) / tile
	twice = make([]uint32, 2*threads*tiles)
	for b := range tiles {
		for i := range 2 * threads {
			tid := i % threads
			at := b*tile + tid/ir.WarpSize*ir.WarpSize*per + tid%ir.WarpSize
			if blocked {
				at = b*tile + tid*per
			}
			v := uint32(0)
			if at < len(in) {
				v = in[at]
			}
			twice[b*2*threads+i] = v + uint32(i)
		}
	}
	return in, twice
}

// TestHeldKeepsEachThreadsSlots checks that held elements stay with their
// threads across a barrier, dealt warp-striped or blocked, with partial
// last tiles.
func TestHeldKeepsEachThreadsSlots(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct {
		threads, per, n int
		blocked         bool
	}{{32, 1, 32, false}, {64, 3, 100, false}, {96, 5, 1000, false}, {256, 16, 4096 + 17, false},
		{32, 1, 32, true}, {64, 3, 100, true}, {96, 5, 1000, true}, {256, 16, 4096 + 17, true}} {
		in := make([]uint32, c.n)
		for i := range in {
			in[i] = r.Uint32()
		}
		tiles := (c.n + c.threads*c.per - 1) / (c.threads * c.per)
		got, err := run(runtime.CPU(), heldKernel(c.threads, c.per, c.blocked), in, c.n, 2*c.threads*tiles, c.n)
		if err != nil {
			t.Fatal(err)
		}
		same, twice := heldWant(c.threads, c.per, c.blocked, in)
		if d := differ("same", got[0], same) + differ("twice", got[1], twice) + differ("pushed", got[2], same); d != "" {
			t.Errorf("%d threads of %d, %d elements, blocked %t: %s", c.threads, c.per, c.n, c.blocked, d)
		}
	}
}

// TestMultisplitHeldEqualsCountingSort checks BlockMultisplitHeld and
// BlockMultisplitHeldOn (their HeldRanks through Held.ScatterBy, their
// Ranks and Counts) against the stable counting sort of every tile, for digits of 1 to 8 bits drawn
// from every distribution, blocks of 1 to 8 warps of 1 to 24 keys per
// thread, and one to three tiles, the last partial.
func TestMultisplitHeldEqualsCountingSort(t *testing.T) {
	dev := runtime.CPU()
	props := gopter.NewProperties(proptest.Parameters(t, 25))
	props.Property("the multisplit of held keys equals the stable counting sort of each tile", prop.ForAll(
		func(warps, per, tiles, extra, bits, dist int, seed uint64) string {
			threads, d := warps*ir.WarpSize, distributions[dist]
			tile := threads * per
			n := (tiles-1)*tile + 1 + extra%tile
			keys := digitKeys(seed, n, bits, d)
			for _, source := range []tileSource{fromHeld, fromHeldAhead} {
				if msg := checkTiledMultisplit(dev, threads, bits, tile, source, keys); msg != "" {
					return fmt.Sprintf("%s, %d keys, %d threads of %d (%s): %s", d.name, n, threads, per,
						tileSourceNames[source], msg)
				}
			}
			return ""
		},
		gen.IntRange(1, 8), gen.IntRange(1, 24), gen.IntRange(1, 3), gen.IntRange(0, 1<<13),
		gen.IntRange(1, arrays.MaxDigitBits), gen.IntRange(0, len(distributions)-1), gen.UInt64()))
	props.TestingRun(t)
}

// TestMultisplitCountedEqualsCountingSort checks BlockMultisplitCounted
// (its HeldRanks through Held.ScatterBy, its Ranks and Counts) against
// the stable counting sort of every tile, as
// TestMultisplitHeldEqualsCountingSort checks BlockMultisplitHeld.
func TestMultisplitCountedEqualsCountingSort(t *testing.T) {
	dev := runtime.CPU()
	props := gopter.NewProperties(proptest.Parameters(t, 25))
	props.Property("the multisplit of keys held blocked equals the stable counting sort of each tile", prop.ForAll(
		func(warps, per, tiles, extra, bits, dist int, seed uint64) string {
			threads, d := warps*ir.WarpSize, distributions[dist]
			tile := threads * per
			n := (tiles-1)*tile + 1 + extra%tile
			msg := checkTiledMultisplit(dev, threads, bits, tile, fromHeldBlocked, digitKeys(seed, n, bits, d))
			if msg != "" {
				return fmt.Sprintf("%s, %d keys, %d threads of %d: %s", d.name, n, threads, per, msg)
			}
			return ""
		},
		gen.IntRange(1, 8), gen.IntRange(1, 24), gen.IntRange(1, 3), gen.IntRange(0, 1<<13),
		gen.IntRange(1, arrays.MaxCountedBits), gen.IntRange(0, len(distributions)-1), gen.UInt64()))
	props.TestingRun(t)
}

// TestGPUHeld compares heldKernel (blocked and warp-striped), the
// multisplits of held keys (by votes and by counters) and Held.Uniform on
// the GPU with the evaluator and with Go, on fresh random keys.
func TestGPUHeld(t *testing.T) {
	gpu := gputest.Open(t)
	r := rand.New(rand.NewPCG(freshSeed(t), 13))
	for _, c := range []struct{ threads, per int }{{32, 1}, {128, 7}, {512, 18}, {1024, 4}} {
		n := 1 + r.IntN(4*c.threads*c.per)
		in := make([]uint32, n)
		for i := range in {
			in[i] = r.Uint32()
		}
		tiles := (n + c.threads*c.per - 1) / (c.threads * c.per)
		what := fmt.Sprintf("held, %d threads of %d, %d elements", c.threads, c.per, n)
		for _, blocked := range []bool{false, true} {
			k := func() *dsl.Kernel { return heldKernel(c.threads, c.per, blocked) }
			sameOnBoth(t, gpu, k, what, in, n, 2*c.threads*tiles, n)
			got, err := run(gpu, k(), in, n, 2*c.threads*tiles, n)
			if err != nil {
				t.Fatal(err)
			}
			same, twice := heldWant(c.threads, c.per, blocked, in)
			if d := differ("same", got[0], same) + differ("twice", got[1], twice) + differ("pushed", got[2], same); d != "" {
				t.Errorf("%s, blocked %t: %s", what, blocked, d)
			}
		}
		bits := 1 + r.IntN(arrays.MaxDigitBits)
		keys := digitKeys(r.Uint64(), n, bits, distributions[r.IntN(len(distributions))])
		for _, source := range []tileSource{fromHeld, fromHeldAhead, fromHeldBlocked} {
			if source == fromHeldBlocked && bits > arrays.MaxCountedBits {
				continue
			}
			if d := checkTiledMultisplit(gpu, c.threads, bits, c.threads*c.per, source, keys); d != "" {
				t.Errorf("multisplit of %s by %d bits (%s): %s", what, bits, tileSourceNames[source], d)
			}
		}
		for _, odd := range []int{0, 1 + r.IntN(n)} {
			shift := r.IntN(29)
			keys := uniformKeys(r, n, odd, shift)
			for _, bitwise := range []bool{false, true} {
				if d := checkUniform(gpu, c.threads, c.per, shift, bitwise, keys); d != "" {
					t.Errorf("Uniform of %s (bitwise %t, field at bit %d): %s", what, bitwise, shift, d)
				}
			}
		}
	}
}

// uniformKernel returns a kernel whose blocks each hold a tile of per keys
// per thread of the input (the last tile partial) and write, for their
// tile, the 4-bit field at bit shift of its first key and whether every
// key's field is the same: by Held.Uniform, or by UniformBits when
// bitwise.
func uniformKernel(threads, per, shift int, bitwise bool) *dsl.Kernel {
	k := dsl.NewKernel("uniform", threads)
	in := dsl.Input[uint32](k, "input")
	values, same := dsl.Output[uint32](k, "values"), dsl.Output[uint32](k, "same")
	tile := dsl.N(uint32(threads * per))
	field := func(k dsl.U32) dsl.U32 { return k.Shr(dsl.N(uint32(shift))).And(dsl.N(15)) }
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.CeilDiv(in.Len(), tile), func(b *dsl.Block, bid dsl.U32) {
			first := dsl.Let(b, bid.Mul(tile))
			keys := arrays.NewHeld[uint32](b, per, tile.Min(in.Len().Sub(first.Exp)))
			keys.Load(b, arrays.Drop(first.Exp, arrays.FromArray(in)))
			uniform := keys.Uniform
			if bitwise {
				uniform = func(b *dsl.Block, f func(dsl.U32) dsl.U32) (dsl.U32, dsl.Bool) {
					return arrays.UniformBits(keys, b, f)
				}
			}
			value, agree := uniform(b, field)
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) {
				values.Store(t, bid, value)
				same.Store(t, bid, dsl.Select(agree, dsl.N(1), dsl.N(0)))
			})
		})
	})
	return k
}

// checkUniform runs uniformKernel on dev over in and returns how it
// differs from Go, or "".
func checkUniform(dev runtime.Device, threads, per, shift int, bitwise bool, in []uint32) string {
	tile := threads * per
	tiles := (len(in) + tile - 1) / tile
	got, err := run(dev, uniformKernel(threads, per, shift, bitwise), in, tiles, tiles)
	if err != nil {
		return err.Error()
	}
	field := func(k uint32) uint32 { return k >> shift & 15 }
	for b := range tiles {
		keys := in[b*tile : min(len(in), (b+1)*tile)]
		same := uint32(1)
		for _, k := range keys {
			if field(k) != field(keys[0]) {
				same = 0
			}
		}
		if got[0][b] != field(keys[0]) || got[1][b] != same {
			return fmt.Sprintf("tile %d of %d keys: value %d same %d, want %d and %d", b, len(keys), got[0][b], got[1][b],
				field(keys[0]), same)
		}
	}
	return ""
}

// uniformKeys returns n keys whose 4-bit fields at bit shift are those of
// the first except, when odd is set, at position odd-1, where some of its
// bits differ.
func uniformKeys(r *rand.Rand, n, odd, shift int) []uint32 {
	field := r.Uint32() & 15 << shift
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = r.Uint32()&^(15<<shift) | field
	}
	if odd > 0 && odd <= n {
		keys[odd-1] ^= (1 + r.Uint32()%15) << shift
	}
	return keys
}

// TestHeldUniform checks Held.Uniform and UniformBits against Go on tiles
// whose keys' 4-bit fields at a random bit are all the same but for at
// most one key anywhere in the tile (its first, last, or any), in which
// any of the field's bits differ, in blocks of 1 to 8 warps of 1 to 9
// keys each, with partial last tiles and warps that hold nothing.
func TestHeldUniform(t *testing.T) {
	dev := runtime.CPU()
	props := gopter.NewProperties(proptest.Parameters(t, 40))
	props.Property("Uniform and UniformBits are whether every held key has the first's field", prop.ForAll(
		func(warps, per, n, odd, shift int, seed uint64) string {
			threads := warps * ir.WarpSize
			n = 1 + n%(2*threads*per)
			if odd%2 == 0 { // every other tile uniform
				odd = 0
			}
			keys := uniformKeys(rand.New(rand.NewPCG(seed, 3)), n, odd/2%(n+1), shift)
			for _, bitwise := range []bool{false, true} {
				if msg := checkUniform(dev, threads, per, shift, bitwise, keys); msg != "" {
					return fmt.Sprintf("%d threads of %d, %d keys, field at bit %d, bitwise %t: %s", threads, per, n,
						shift, bitwise, msg)
				}
			}
			return ""
		},
		gen.IntRange(1, 8), gen.IntRange(1, 9), gen.IntRange(0, 1<<13), gen.IntRange(0, 1<<13), gen.IntRange(0, 28),
		gen.UInt64()))
	props.TestingRun(t)
}
