package arrays_test

import (
	"encoding/binary"
	"slices"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
)

type pure = func(arrays.Pull[uint32]) arrays.Pull[uint32]

// mix is a two-element function that is neither symmetric nor
// order-preserving, so that a law holding for it fixes which pairs a
// network combines and in which order.
func mix(x, y dsl.U32) (dsl.U32, dsl.U32) { return x.Mul(dsl.N(3)).Add(y), x.Xor(y.Shl(dsl.N(1))) }

func goMix(x, y uint32) (uint32, uint32) { return 3*x + y, x ^ y<<1 }

// goBfly is the butterfly by its definition on bits: level k pairs the
// indices that differ in bit n-k, the one with the bit clear first.
func goBfly(n int, f func(x, y uint32) (uint32, uint32), a []uint32) []uint32 {
	a = slices.Clone(a)
	for bit := n - 1; bit >= 0; bit-- {
		for i := range a {
			if j := i | 1<<bit; i&(1<<bit) == 0 {
				a[i], a[j] = f(a[i], a[j])
			}
		}
	}
	return a
}

// runCount is runBlock for a program that also reads a uint32 kernel
// parameter, given count.
func runCount(t *testing.T, count uint32, f func(b *dsl.Block, c dsl.U32, a arrays.Pull[uint32]) arrays.Pull[uint32], in []uint32) []uint32 {
	t.Helper()
	n := uint32(len(in))
	k := dsl.NewKernel("lawCount", 256)
	src := dsl.Input[uint32](k, "input")
	dst := dsl.Output[uint32](k, "output")
	c := dsl.Param[uint32](k, "count")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			r := f(b, c, arrays.Compute(b, arrays.Take(dsl.N(n), arrays.FromArray(src))))
			arrays.WriteTo(b, dst, arrays.ToPush[*dsl.Block](r))
		})
	})
	kern, err := k.Build()
	if err != nil {
		t.Fatal(err)
	}
	inBuf, outBuf := eval.NewBuffer(ir.Uint32, len(in)), eval.NewBuffer(ir.Uint32, len(in))
	for i, v := range in {
		binary.LittleEndian.PutUint32(inBuf.Data[4*i:], v)
	}
	args := []eval.Arg{{Buffer: inBuf}, {Buffer: outBuf}, {Scalar: ir.UintValue(ir.Uint32, uint64(count))}}
	if err := eval.Launch(kern, eval.Config{Blocks: 1}, args); err != nil {
		t.Fatal(err)
	}
	out := make([]uint32, len(in))
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(outBuf.Data[4*i:])
	}
	return out
}

// TestThesisLaws checks the laws of the thesis' combinators on the CPU
// device, as the thesis checks its programs with QuickCheck.
func TestThesisLaws(t *testing.T) {
	props := gopter.NewProperties(proptest.Parameters(t, 10))
	same := func(a, b []uint32) bool { return slices.Equal(a, b) }
	prog := func(i int) pure { return programs[i].f }
	progGen := gen.IntRange(0, len(programs)-1)

	props.Property("par1 f g = initS (n/2) f ->- endS (n/2) g, and two f = par1 f f", prop.ForAll(func(size, fi, gi int, seed uint64) bool {
		in := randomInput(size, seed)
		f, g := prog(fi), prog(gi)
		par := runBlock(t, synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Par1(f, g, a) }), in)
		segs := runBlock(t, synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] {
			h := a.Len().Div(dsl.N(2))
			return arrays.EndS(h, g, arrays.InitS(h, f, a))
		}), in)
		two := runBlock(t, synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Two(f, a) }), in)
		par11 := runBlock(t, synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Par1(f, f, a) }), in)
		return same(par, segs) && same(two, par11)
	}, gen.IntRange(1, 600), progGen, progGen, gen.UInt64()))

	props.Property("one rev reverses the second half", prop.ForAll(func(size int, seed uint64) bool {
		in := randomInput(size, seed)
		want := slices.Clone(in)
		slices.Reverse(want[size/2:])
		return same(runBlock(t, synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.One(arrays.Reverse[uint32], a)
		}), in), want)
	}, gen.IntRange(1, 600), gen.UInt64()))

	props.Property("initS k f and endS k g commute; initS k f = f for k >= n; odds f = endS 1 (evens f)", prop.ForAll(func(size, k, fi, gi int, seed uint64) bool {
		in := randomInput(size, seed)
		f, g := prog(fi), prog(gi)
		kk := dsl.N(uint32(k))
		lhs := runBlock(t, synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.EndS(kk, g, arrays.InitS(kk, f, a)) }), in)
		rhs := runBlock(t, synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.InitS(kk, f, arrays.EndS(kk, g, a)) }), in)
		whole := runBlock(t, synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.InitS(dsl.N(uint32(size+k)), f, a) }), in)
		odds := runBlock(t, synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Odds(cmpSwap, a) }), in)
		ends := runBlock(t, synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.EndS(dsl.N(1), func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Evens(cmpSwap, a) }, a)
		}), in)
		return same(lhs, rhs) && same(whole, runBlock(t, synced(f), in)) && same(odds, ends)
	}, gen.IntRange(1, 600), gen.IntRange(0, 700), progGen, progGen, gen.UInt64()))

	props.Property("bfly n f = shex n f = the butterfly on bits", prop.ForAll(func(n int, seed uint64) bool {
		in := randomInput(1<<n, seed)
		want := goBfly(n, goMix, in)
		shex := runBlock(t, func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Shex(b, n, mix, a) }, in)
		if n > 4 {
			return same(shex, want)
		}
		bfly := runBlock(t, synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Bfly(n, mix, a) }), in)
		return same(bfly, want) && same(shex, want)
	}, gen.IntRange(0, 8), gen.UInt64()))

	props.Property("bfly n f = ilv (bfly (n-1) f) ->- evens f", prop.ForAll(func(n int, seed uint64) bool {
		in := randomInput(1<<n, seed)
		rec := runBlock(t, synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] {
			inner := func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Bfly(n-1, mix, a) }
			return arrays.Evens(mix, arrays.Ilv(inner, a))
		}), in)
		return same(rec, goBfly(n, goMix, in))
	}, gen.IntRange(1, 3), gen.UInt64()))

	props.Property("bfly n cmpSwap merges a bitonic sequence", prop.ForAll(func(n int, seed uint64) bool {
		in := randomInput(1<<n, seed)
		h := len(in) / 2
		slices.Sort(in[:h])
		slices.Sort(in[h:])
		slices.Reverse(in[h:])
		want := slices.Sorted(slices.Values(in))
		return same(runBlock(t, synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Bfly(n, cmpSwap, a) }), in), want)
	}, gen.IntRange(1, 4), gen.UInt64()))

	props.Property("rep m f = f ->- ... ->- f (m times); repE with a parameter = rep", prop.ForAll(func(size, m, fi int, seed uint64) bool {
		in := randomInput(size, seed)
		f := prog(fi)
		want := in
		if m > 0 {
			step := synced(f)
			for range m - 1 {
				step = then(step, synced(f))
			}
			want = runBlock(t, step, in)
		}
		body := func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] { return f(a) }
		rep := runBlock(t, func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Rep(b, m, body, a) }, in)
		repE := runCount(t, uint32(m), func(b *dsl.Block, c dsl.U32, a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.RepE(b, c, body, a)
		}, in)
		return same(rep, want) && same(repE, want)
	}, gen.IntRange(1, 300), gen.IntRange(0, 5), progGen, gen.UInt64()))

	props.Property("rep n riffle = id on 2^n elements", prop.ForAll(func(n int, seed uint64) bool {
		in := randomInput(1<<n, seed)
		return same(runBlock(t, func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.Rep(b, n, func(_ *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Riffle(a) }, a)
		}, in), in)
	}, gen.IntRange(1, 9), gen.UInt64()))

	props.Property("tblLook (riffle table) = riffle", prop.ForAll(func(size int, seed uint64) bool {
		in := randomInput(size, seed)
		h := uint32((size + 1) / 2)
		tbl := make([]uint32, size)
		for i := range tbl {
			tbl[i] = uint32(i)/2 + uint32(i%2)*h
		}
		lookup := runBlock(t, synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] {
			table := arrays.Generate(a.Len(), func(i dsl.U32) dsl.U32 {
				return i.Shr(dsl.N(1)).Add(i.And(dsl.N(1)).Mul(dsl.N(h)))
			})
			return arrays.TblLook(table, a)
		}), in)
		for i, j := range tbl {
			if lookup[i] != in[j] {
				return false
			}
		}
		return same(lookup, runBlock(t, synced(arrays.Riffle[uint32]), in))
	}, gen.IntRange(1, 600), gen.UInt64()))

	props.TestingRun(t)
}

// TestThesisCombinatorErrors checks that the mistakes the thesis'
// combinators can be given are errors at the caller's line.
func TestThesisCombinatorErrors(t *testing.T) {
	id := func(_ *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] { return a }
	cases := []struct {
		name, want string
		f          pipeline
	}{
		{"negative rep", "Rep with a negative count -1", func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.Rep(b, -1, id, a)
		}},
		{"nil program", "Rep or RepE of a nil program", func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.RepE[*dsl.Block, uint32](b, dsl.N(2), nil, a)
		}},
		{"length not constant", "array whose length is not a constant", func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.Rep(b, 2, id, arrays.Take(a.At(dsl.N(0)).Min(dsl.N(4)), a))
		}},
		{"length changed", "turns 8 elements into 4", func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.Rep(b, 3, func(_ *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Take(dsl.N(4), a) }, a)
		}},
		{"exchange bit", "Exchange of bit 32, outside [0, 31]", func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.Compute(b, arrays.Exchange(32, cmpSwap, a))
		}},
		{"short table", "TblLook of an array of 8 elements through a table of 3", func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.Compute(b, arrays.TblLook(arrays.Take(dsl.N(3), a), a))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := dsl.NewKernel("bad", 64)
			src := dsl.Input[uint32](k, "input")
			dst := dsl.Output[uint32](k, "output")
			k.Body(func(g *dsl.Grid) {
				g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
					r := c.f(b, arrays.Compute(b, arrays.Take(dsl.N(8), arrays.FromArray(src))))
					arrays.WriteTo(b, dst, arrays.ToPush[*dsl.Block](r))
				})
			})
			_, err := k.Build()
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "thesis_test.go:") {
				t.Fatalf("Build error %v, want one containing %q at this file's line", err, c.want)
			}
		})
	}
}
