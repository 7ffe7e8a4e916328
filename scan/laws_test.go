package scan_test

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/scan"
)

// operator is a scan operator with its identity and its meaning in Go.
type operator struct {
	name     string
	op       arrays.Op[uint32]
	identity uint32
	do       func(a, b uint32) uint32
}

// compose is the composition of permutations of {0, 1, 2, 3}, each held in
// the low 8 bits as four 2-bit images: compose(f, g) applies f, then g. It
// is associative, not commutative, with the identity 0xe4; permutations,
// unlike maps in general, never collapse into a constant, so a long
// product still shows every factor and their order.
func compose(f, g dsl.U32) dsl.U32 {
	r := dsl.N(0)
	for i := uint32(0); i < 4; i++ {
		fi := f.Shr(dsl.N(2 * i)).And(dsl.N(3))
		r = r.Or(g.Shr(fi.Shl(dsl.N(1))).And(dsl.N(3)).Shl(dsl.N(2 * i)))
	}
	return r
}

// permutations are the 24 permutations of {0, 1, 2, 3} as compose holds
// them.
var permutations = func() []uint32 {
	var ps []uint32
	for p := uint32(0); p < 256; p++ {
		seen := 0
		for i := uint32(0); i < 4; i++ {
			seen |= 1 << (p >> (2 * i) & 3)
		}
		if seen == 15 {
			ps = append(ps, p)
		}
	}
	return ps
}()

func composeGo(f, g uint32) uint32 {
	r := uint32(0)
	for i := uint32(0); i < 4; i++ {
		fi := f >> (2 * i) & 3
		r |= (g >> (2 * fi) & 3) << (2 * i)
	}
	return r
}

var operators = []operator{
	{"add", dsl.U32.Add, 0, func(a, b uint32) uint32 { return a + b }},
	{"max", dsl.U32.Max, 0, func(a, b uint32) uint32 { return max(a, b) }},
	{"xor", dsl.U32.Xor, 0, func(a, b uint32) uint32 { return a ^ b }},
	{"compose", compose, 0xe4, composeGo},
}

// sequential is the scan in Go.
func sequential(o operator, kind scan.Kind, xs []uint32) []uint32 {
	out := make([]uint32, len(xs))
	acc := o.identity
	for i, x := range xs {
		if kind == scan.Exclusive {
			out[i] = acc
		}
		acc = o.do(acc, x)
		if kind == scan.Inclusive {
			out[i] = acc
		}
	}
	return out
}

// randomWords returns n pseudo-random inputs of o from seed: permutations
// for compose, any words for the others.
func randomWords(n int, seed uint64, o operator) []uint32 {
	xs := make([]uint32, n)
	x := seed | 1
	for i := range xs {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		xs[i] = uint32(x >> 16)
		if o.name == "compose" {
			xs[i] = permutations[xs[i]%uint32(len(permutations))]
		}
	}
	return xs
}

// runScan scans xs on dev with a Scan of o and kind, in place when inPlace.
func runScan(dev runtime.Device, o operator, kind scan.Kind, xs []uint32, inPlace bool) ([]uint32, error) {
	s, err := scan.New(dev, o.op, o.identity, kind)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	in, err := runtime.FromSlice(dev, xs)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	out := in
	if !inPlace {
		if out, err = runtime.Alloc[uint32](dev, len(xs)); err != nil {
			return nil, err
		}
		defer out.Free()
	}
	if err := s.Run(in, out); err != nil {
		return nil, err
	}
	return out.ToSlice()
}

// firstDifference describes where got and want first differ, or is "".
func firstDifference(got, want []uint32) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d elements, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Sprintf("out[%d] = %#x, want %#x", i, got[i], want[i])
		}
	}
	return ""
}

// TestScanIsTheSequentialScan checks, on the CPU device (whose evaluator
// reports any race or out-of-bounds access of the look-back), that every
// scan equals the sequential one, for lengths from 1 to several tiles.
func TestScanIsTheSequentialScan(t *testing.T) {
	dev := runtime.CPU()
	props := gopter.NewProperties(proptest.Parameters(t, 12))
	props.Property("scan = sequential scan", prop.ForAll(func(n, oi int, exclusive, inPlace bool, seed uint64) bool {
		o, kind := operators[oi], scan.Inclusive
		if exclusive {
			kind = scan.Exclusive
		}
		xs := randomWords(n, seed, o)
		got, err := runScan(dev, o, kind, xs, inPlace)
		if err != nil {
			t.Logf("%s %v scan of %d: %v", o.name, kind, n, err)
			return false
		}
		if d := firstDifference(got, sequential(o, kind, xs)); d != "" {
			t.Logf("%s %v scan of %d (in place %v): %s", o.name, kind, n, inPlace, d)
			return false
		}
		return true
	}, gen.IntRange(1, 5*arrays.DeviceScanTile+77), gen.IntRange(0, len(operators)-1), gen.Bool(), gen.Bool(),
		gen.UInt64()))
	props.TestingRun(t)
}

// TestScanLengthsAtTheTileEdges scans lengths around the tile size, and
// the empty input, with the uint32 sums.
func TestScanLengthsAtTheTileEdges(t *testing.T) {
	dev := runtime.CPU()
	tile := arrays.DeviceScanTile
	for _, n := range []int{0, 1, 2, 31, 33, tile - 1, tile, tile + 1, 2 * tile, 3*tile - 1, 33*tile + 5} {
		xs := randomWords(n, uint64(n)+1, operators[0])
		for _, kind := range []scan.Kind{scan.Inclusive, scan.Exclusive} {
			in, err := runtime.FromSlice(dev, xs)
			if err != nil {
				t.Fatal(err)
			}
			out, err := runtime.Alloc[uint32](dev, n)
			if err != nil {
				t.Fatal(err)
			}
			run := scan.InclusiveSum
			if kind == scan.Exclusive {
				run = scan.ExclusiveSum
			}
			if err := run(dev, in, out); err != nil {
				t.Fatalf("%v sum of %d: %v", kind, n, err)
			}
			got, err := out.ToSlice()
			if err != nil {
				t.Fatal(err)
			}
			if d := firstDifference(got, sequential(operators[0], kind, xs)); d != "" {
				t.Fatalf("%v sum of %d: %s", kind, n, d)
			}
			in.Free()
			out.Free()
		}
	}
}

// testShapes are block shapes of the scan besides the default: few and
// many threads, odd and even elements per thread, padding after every 32
// words and after every 96, rows that split a warp's elements, and both
// settings of FullTiles, warps reading their own rows, vector rows, a
// backoff and tiles by block index.
var testShapes = []arrays.DeviceScanShape{
	{Threads: 256, PerThread: 16, FullTiles: true, WarpRows: true, Backoff: 64},
	{Threads: 96, PerThread: 6, WarpRows: true},
	{Threads: 64, PerThread: 7, FullTiles: true, WarpRows: true},
	{Threads: 128, PerThread: 24, FullTiles: true},
	{Threads: 512, PerThread: 8},
	{Threads: 256, PerThread: 12, FullTiles: true},
	{Threads: 96, PerThread: 7, FullTiles: true},
	{Threads: 32, PerThread: 1},
	{Threads: 1024, PerThread: 2, FullTiles: true},
	{Threads: 64, PerThread: 6},
	{Threads: 64, PerThread: 32, FullTiles: true},
	{Threads: 64, PerThread: 16, Vector: true},
	{Threads: 96, PerThread: 12, FullTiles: true, Vector: true},
	{Threads: 32, PerThread: 4, FullTiles: true, Vector: true, Backoff: 32},
	{Threads: 64, PerThread: 8, FullTiles: true, Vector: true, TilesByBlock: true},
	{Threads: 96, PerThread: 6, WarpRows: true, TilesByBlock: true},
	{Threads: 512, PerThread: 32, FullTiles: true, Vector: true, TilesByBlock: true},
}

// TestScanShapesAreTheSequentialScan checks, on the CPU device, that a
// scan with blocks of every test shape equals the sequential one, for
// lengths at its tiles' edges, with each operator and kind in turn.
func TestScanShapesAreTheSequentialScan(t *testing.T) {
	dev := runtime.CPU()
	for i, shape := range testShapes {
		o := operators[i%len(operators)]
		kind := []scan.Kind{scan.Inclusive, scan.Exclusive}[i%2]
		s, err := scan.NewShaped(dev, o.op, o.identity, kind, shape)
		if err != nil {
			t.Fatalf("shape %v: %v", shape, err)
		}
		tile := shape.Tile()
		for _, n := range []int{1, tile - 1, tile, tile + 1, 3*tile + 5} {
			xs := randomWords(n, uint64(n*7+i), o)
			in, err := runtime.FromSlice(dev, xs)
			if err != nil {
				t.Fatal(err)
			}
			out := in
			if n%2 == 0 {
				if out, err = runtime.Alloc[uint32](dev, n); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Run(in, out); err != nil {
				t.Fatalf("shape %v, %s %v scan of %d: %v", shape, o.name, kind, n, err)
			}
			got, err := out.ToSlice()
			if err != nil {
				t.Fatal(err)
			}
			if d := firstDifference(got, sequential(o, kind, xs)); d != "" {
				t.Errorf("shape %v, %s %v scan of %d: %s", shape, o.name, kind, n, d)
			}
			in.Free()
			if out != in {
				out.Free()
			}
		}
		s.Close()
	}
}

// dslLit returns x as a uint32 literal expression.
func dslLit(x uint32) dsl.U32 { return dsl.N(x) }
