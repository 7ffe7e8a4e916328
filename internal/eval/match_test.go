package eval

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// matchKernel returns a kernel of threads threads in which every lane of
// a ForAll of count lanes writes the MatchAny of its input element, of
// type t.
func matchKernel(t ir.Type, threads int, lanes uint32) *ir.Kernel {
	in, out := global("in", t, ir.Input), global("out", ir.Uint32, ir.Output)
	i, x, m := index("i"), &ir.Var{Name: "x", T: t}, index("m")
	return kernel(threads, []*ir.Array{in, out}, nil, forAll(ir.BlockThreads, i, u32(lanes), 70,
		decl(x, ld(in, i, 71), 71),
		decl(m, u32(0), 72),
		&ir.MatchAny{Result: m, Value: x, Pos: at(72)},
		st(out, i, m, 73)))
}

// matchValues returns the bits of n values of type t drawn to collide:
// few distinct values, values that differ only in their high 32 bits, and
// for floats both zeros and NaNs of equal and of different bits.
func matchValues(t ir.Type, n int, r *rand.Rand) []uint64 {
	pool := []uint64{0, 1, 2, 1 << 32, 1<<32 | 1, math.MaxUint64, 7 << 40}
	switch t {
	case ir.Float32:
		pool = []uint64{uint64(math.Float32bits(0)), uint64(math.Float32bits(float32(math.Copysign(0, -1)))),
			uint64(math.Float32bits(float32(math.NaN()))), 0x7fc00001, uint64(math.Float32bits(1.5))}
	case ir.Float64:
		pool = []uint64{math.Float64bits(0), math.Float64bits(math.Copysign(0, -1)), math.Float64bits(math.NaN()),
			0x7ff8000000000001, math.Float64bits(1.5)}
	}
	bits := make([]uint64, n)
	for l := range bits {
		bits[l] = pool[r.IntN(len(pool))] & t.Mask()
	}
	return bits
}

// TestMatchAny checks MatchAny on every type it takes against the masks of
// equal bits computed in Go, in two warps.
func TestMatchAny(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, typ := range []ir.Type{ir.Uint32, ir.Int32, ir.Uint64, ir.Int64, ir.Float32, ir.Float64} {
		for range 20 {
			bits := matchValues(typ, 64, r)
			in := NewBuffer(typ, 64)
			for l, b := range bits {
				in.Set(l, ir.Value{T: typ, Bits: b})
			}
			out := NewBuffer(ir.Uint32, 64)
			if err := Launch(matchKernel(typ, 64, 64), Config{Blocks: 1}, bufArgs(in, out)); err != nil {
				t.Fatal(err)
			}
			want := make([]uint32, 64)
			for l := range want {
				w := l / ir.WarpSize * ir.WarpSize
				for o := w; o < w+ir.WarpSize; o++ {
					if bits[o] == bits[l] {
						want[l] |= 1 << (o - w)
					}
				}
			}
			if got := u32s(out); !slices.Equal(got, want) {
				t.Fatalf("%v: values %x: masks %x, want %x", typ, bits, got, want)
			}
		}
	}
}

// TestMatchAnyNeedsTheWholeWarp runs MatchAny with lanes of the warp
// inactive: in a ForAll that does not cover the warp, and under a
// condition of the lane, which the evaluator reports at the condition.
func TestMatchAnyNeedsTheWholeWarp(t *testing.T) {
	in := NewBuffer(ir.Uint32, 32)
	err := Launch(matchKernel(ir.Uint32, 32, 20), Config{Blocks: 1}, bufArgs(in, NewBuffer(ir.Uint32, 32)))
	wantError(t, err, "user.go:72", "match executed with inactive lanes (active mask 0x000fffff)")

	out := global("out", ir.Uint32, ir.Output)
	i, m := index("i"), index("m")
	k := kernel(32, []*ir.Array{out}, nil, forAll(ir.BlockThreads, i, u32(32), 80,
		decl(m, u32(0), 80),
		&ir.If{Cond: bin(ir.Lt, i, u32(16)), Pos: at(81),
			Then: []ir.Stmt{&ir.MatchAny{Result: m, Value: i, Pos: at(82)}}},
		st(out, i, m, 83)))
	err = Launch(k, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Uint32, 32)))
	wantError(t, err, "user.go:81", "the lanes of a warp disagree on the condition of an if that contains a "+
		"shuffle, ballot or match")
}

// TestMatchAnyRejectsNarrowTypes launches MatchAny of values that
// __match_any_sync does not take.
func TestMatchAnyRejectsNarrowTypes(t *testing.T) {
	for _, typ := range []ir.Type{ir.Bool, ir.Int8, ir.Uint16, ir.Float16} {
		err := Launch(matchKernel(typ, 32, 32), Config{Blocks: 1}, bufArgs(NewBuffer(typ, 32), NewBuffer(ir.Uint32, 32)))
		wantError(t, err, "user.go:72", "match of a "+typ.String()+" value")
	}
}
