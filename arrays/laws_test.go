package arrays_test

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/eval"
	_ "github.com/obsidian-go/obsidian/internal/golden"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
)

// pipeline is a block program from one array to another of the same length.
type pipeline func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32]

// runBlock builds a one-block kernel of 256 threads that loads the n
// elements of in through shared memory, applies f and stores the result, and
// runs it in the evaluator.
func runBlock(t *testing.T, f pipeline, in []uint32) []uint32 {
	t.Helper()
	n := uint32(len(in))
	k := dsl.NewKernel("law", 256)
	src := dsl.Input[uint32](k, "input")
	dst := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			r := f(b, arrays.Compute(b, arrays.Take(dsl.N(n), arrays.FromArray(src))))
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
	if err := eval.Launch(kern, eval.Config{Blocks: 1}, []eval.Arg{{Buffer: inBuf}, {Buffer: outBuf}}); err != nil {
		t.Fatal(err)
	}
	out := make([]uint32, len(in))
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(outBuf.Data[4*i:])
	}
	return out
}

// synced forces f's result to shared memory: the thesis' f ->- sync.
func synced(f func(arrays.Pull[uint32]) arrays.Pull[uint32]) pipeline {
	return func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Compute(b, f(a)) }
}

// then is sequential composition, the thesis' f ->- g.
func then(f, g pipeline) pipeline {
	return func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] { return g(b, f(b, a)) }
}

func twoOf(f pipeline) pipeline {
	return func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] {
		// Two of a program with barriers: run f on each half in turn,
		// each at block level, and join the halves.
		a1, a2 := arrays.Halve(a)
		return arrays.Append(f(b, a1), f(b, a2))
	}
}

func cmpSwap(x, y dsl.U32) (dsl.U32, dsl.U32) { return x.Min(y), x.Max(y) }

// programs are length-preserving building blocks for the laws.
var programs = []struct {
	name string
	f    func(arrays.Pull[uint32]) arrays.Pull[uint32]
}{
	{"rev", arrays.Reverse[uint32]},
	{"riffle", arrays.Riffle[uint32]},
	{"unriffle", arrays.Unriffle[uint32]},
	{"evens", func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Evens(cmpSwap, a) }},
	{"odds", func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Odds(cmpSwap, a) }},
	{"add7", func(a arrays.Pull[uint32]) arrays.Pull[uint32] {
		return arrays.Map(a, func(x dsl.U32) dsl.U32 { return x.Add(dsl.N(7)) })
	}},
	{"ixor", func(a arrays.Pull[uint32]) arrays.Pull[uint32] {
		return arrays.Generate(a.Len(), func(i dsl.U32) dsl.U32 { return a.At(i).Xor(i) })
	}},
}

// sizeGen gives 2^k for k in [lo, hi].
func sizeGen(lo, hi int) gopter.Gen {
	return gen.IntRange(lo, hi).Map(func(k int) int { return 1 << k })
}

func randomInput(size int, seed uint64) []uint32 {
	in := make([]uint32, size)
	x := seed | 1
	for i := range in {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		in[i] = uint32(x)
	}
	return in
}

func TestLaws(t *testing.T) {
	params := proptest.Parameters(t, 15)
	props := gopter.NewProperties(params)
	same := func(a, b []uint32) bool { return slices.Equal(a, b) }

	props.Property("rev . rev = id", prop.ForAll(func(size int, seed uint64) bool {
		in := randomInput(size, seed)
		rev := synced(arrays.Reverse[uint32])
		return same(runBlock(t, then(rev, rev), in), in)
	}, gen.IntRange(1, 700), gen.UInt64()))

	props.Property("n riffles = id on 2^n elements", prop.ForAll(func(n int, seed uint64) bool {
		in := randomInput(1<<n, seed)
		f := synced(arrays.Riffle[uint32])
		for i := 1; i < n; i++ {
			f = then(f, synced(arrays.Riffle[uint32]))
		}
		return same(runBlock(t, f, in), in)
	}, gen.IntRange(1, 9), gen.UInt64()))

	props.Property("unriffle . riffle = id", prop.ForAll(func(size int, seed uint64) bool {
		in := randomInput(size, seed)
		return same(runBlock(t, then(synced(arrays.Riffle[uint32]), synced(arrays.Unriffle[uint32])), in), in)
	}, sizeGen(1, 10), gen.UInt64()))

	props.Property("two (f ->- g) = two f ->- two g", prop.ForAll(func(size, fi, gi int, seed uint64) bool {
		in := randomInput(size, seed)
		f, g := synced(programs[fi].f), synced(programs[gi].f)
		return same(runBlock(t, twoOf(then(f, g)), in), runBlock(t, then(twoOf(f), twoOf(g)), in))
	}, sizeGen(2, 10), gen.IntRange(0, len(programs)-1), gen.IntRange(0, len(programs)-1), gen.UInt64()))

	props.Property("two (ilv f) = ilv (two f)", prop.ForAll(func(size, fi int, seed uint64) bool {
		in := randomInput(size, seed)
		f := programs[fi].f
		ilv := func(h func(arrays.Pull[uint32]) arrays.Pull[uint32]) func(arrays.Pull[uint32]) arrays.Pull[uint32] {
			return func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Ilv(h, a) }
		}
		two := func(h func(arrays.Pull[uint32]) arrays.Pull[uint32]) func(arrays.Pull[uint32]) arrays.Pull[uint32] {
			return func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Two(h, a) }
		}
		return same(runBlock(t, synced(two(ilv(f))), in), runBlock(t, synced(ilv(two(f))), in))
	}, sizeGen(2, 10), gen.IntRange(0, len(programs)-1), gen.UInt64()))

	props.Property("append (halve a) = a", prop.ForAll(func(size int, seed uint64) bool {
		in := randomInput(size, seed)
		return same(runBlock(t, synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.Append(arrays.Halve(a))
		}), in), in)
	}, gen.IntRange(1, 1000), gen.UInt64()))

	props.Property("map f . map g = map (f . g)", prop.ForAll(func(size int, c1, c2 uint32, seed uint64) bool {
		in := randomInput(size, seed)
		f := func(x dsl.U32) dsl.U32 { return x.Mul(dsl.N(c1 | 1)).Xor(dsl.N(c2)) }
		g := func(x dsl.U32) dsl.U32 { return x.Add(dsl.N(c2)).Shr(dsl.N(c1 % 32)) }
		lhs := synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Map(arrays.Map(a, g), f) })
		rhs := synced(func(a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.Map(a, func(x dsl.U32) dsl.U32 { return f(g(x)) })
		})
		want := make([]uint32, len(in))
		for i, x := range in {
			want[i] = ((x + c2) >> (c1 % 32) * (c1 | 1)) ^ c2
		}
		return same(runBlock(t, lhs, in), want) && same(runBlock(t, rhs, in), want)
	}, gen.IntRange(1, 1000), gen.UInt32(), gen.UInt32(), gen.UInt64()))

	props.TestingRun(t)
}

// TestCombinatorsAgainstGo checks each combinator against a plain-Go
// definition on one input.
func TestCombinatorsAgainstGo(t *testing.T) {
	in := randomInput(64, 42)
	n := len(in)
	cases := []struct {
		name string
		f    func(arrays.Pull[uint32]) arrays.Pull[uint32]
		want func([]uint32) []uint32
	}{
		{"Reverse", arrays.Reverse[uint32], func(a []uint32) []uint32 {
			r := slices.Clone(a)
			slices.Reverse(r)
			return r
		}},
		{"Riffle", arrays.Riffle[uint32], func(a []uint32) []uint32 {
			r := make([]uint32, 0, n)
			for i := 0; i < n/2; i++ {
				r = append(r, a[i], a[i+n/2])
			}
			return r
		}},
		{"Unriffle", arrays.Unriffle[uint32], func(a []uint32) []uint32 {
			var e, o []uint32
			for i, x := range a {
				if i%2 == 0 {
					e = append(e, x)
				} else {
					o = append(o, x)
				}
			}
			return append(e, o...)
		}},
		{"Evens", func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Evens(cmpSwap, a) }, func(a []uint32) []uint32 {
			r := slices.Clone(a)
			for i := 0; i+1 < n; i += 2 {
				r[i], r[i+1] = min(a[i], a[i+1]), max(a[i], a[i+1])
			}
			return r
		}},
		{"Odds", func(a arrays.Pull[uint32]) arrays.Pull[uint32] { return arrays.Odds(cmpSwap, a) }, func(a []uint32) []uint32 {
			r := slices.Clone(a)
			for i := 1; i+1 < n; i += 2 {
				r[i], r[i+1] = min(a[i], a[i+1]), max(a[i], a[i+1])
			}
			return r
		}},
		{"Drop+Take", func(a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.Append(arrays.Drop(dsl.N(10), a), arrays.Take(dsl.N(10), a))
		}, func(a []uint32) []uint32 { return append(slices.Clone(a[10:]), a[:10]...) }},
		{"BinSplit rev", func(a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.BinSplit(2, arrays.Reverse[uint32], a)
		}, func(a []uint32) []uint32 {
			r := slices.Clone(a)
			for p := 0; p < 4; p++ {
				slices.Reverse(r[p*n/4 : (p+1)*n/4])
			}
			return r
		}},
		{"Concat of Coalesce", func(a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.Concat(arrays.Coalesce(4, a))
		}, func(a []uint32) []uint32 {
			s := n / 4
			r := make([]uint32, 0, n)
			for i := 0; i < s; i++ {
				for j := 0; j < 4; j++ {
					r = append(r, a[i+s*j])
				}
			}
			return r
		}},
		{"Concat of SplitUp", func(a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.Concat(arrays.SplitUp(16, dsl.N(0), a))
		}, slices.Clone[[]uint32]},
		{"ZipWith", func(a arrays.Pull[uint32]) arrays.Pull[uint32] {
			return arrays.ZipWith(dsl.U32.Sub, a, arrays.Reverse(a))
		}, func(a []uint32) []uint32 {
			r := make([]uint32, n)
			for i := range r {
				r[i] = a[i] - a[n-1-i]
			}
			return r
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := runBlock(t, synced(c.f), in)
			if want := c.want(in); !slices.Equal(got, want) {
				t.Errorf("got  %v\nwant %v", got, want)
			}
		})
	}
}

// TestMapThreads gives each thread four consecutive elements to reverse
// sequentially.
func TestMapThreads(t *testing.T) {
	in := randomInput(256, 9)
	got := runBlock(t, func(b *dsl.Block, a arrays.Pull[uint32]) arrays.Pull[uint32] {
		parts := arrays.SplitUp(4, dsl.N(0), a)
		return arrays.Force(b, arrays.MapThreads[*dsl.Block](parts, 4, func(t *dsl.Thread, _ dsl.U32, part arrays.Pull[uint32]) arrays.Push[*dsl.Thread, uint32] {
			return arrays.ToPush[*dsl.Thread](arrays.Reverse(part))
		}))
	}, in)
	for i := range in {
		if want := in[i/4*4+3-i%4]; got[i] != want {
			t.Fatalf("out[%d] = %d, want %d", i, got[i], want)
		}
	}
}
