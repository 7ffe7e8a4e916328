package arrays_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
)

// operator is an associative operator in the DSL and in Go, with its
// identity and a source of test values for it.
type operator[T dsl.Number] struct {
	name     string
	op       arrays.Op[T]
	apply    func(a, b T) T
	identity T
	value    func(r *rand.Rand) T
}

// lastNonZero is associative and not commutative: a op b is b, unless b is
// 0. A scan under it carries the last non-zero value seen.
func lastNonZero(a, b dsl.U32) dsl.U32 { return dsl.Select(b.Ne(dsl.N(0)), b, a) }

// affine composes affine maps of Z/2^16, packed as a<<16 | b for x ->
// a*x + b: p op q is p then q, x -> qa*(pa*x + pb) + qb. It is associative
// and not commutative, and every element changes a scan from there on.
func affine(p, q dsl.U32) dsl.U32 {
	low := dsl.N(0xffff)
	pa, pb := p.Shr(dsl.N(16)), p.And(low)
	qa, qb := q.Shr(dsl.N(16)), q.And(low)
	return qa.Mul(pa).And(low).Shl(dsl.N(16)).Or(qa.Mul(pb).Add(qb).And(low))
}

func affineGo(p, q uint32) uint32 {
	pa, pb, qa, qb := p>>16, p&0xffff, q>>16, q&0xffff
	return (qa*pa&0xffff)<<16 | (qa*pb+qb)&0xffff
}

// sparse returns a random uint32, 0 a third of the time.
func sparse(r *rand.Rand) uint32 {
	if r.IntN(3) == 0 {
		return 0
	}
	return r.Uint32()
}

// u32Ops are the uint32 operators the laws hold for: commutative ones and
// two that are not.
var u32Ops = []operator[uint32]{
	{"add", dsl.U32.Add, func(a, b uint32) uint32 { return a + b }, 0, sparse},
	{"max", dsl.U32.Max, func(a, b uint32) uint32 { return max(a, b) }, 0, sparse},
	{"min", dsl.U32.Min, func(a, b uint32) uint32 { return min(a, b) }, math.MaxUint32, sparse},
	{"xor", dsl.U32.Xor, func(a, b uint32) uint32 { return a ^ b }, 0, sparse},
	{"last non-zero", lastNonZero, func(a, b uint32) uint32 {
		if b != 0 {
			return b
		}
		return a
	}, 0, sparse},
	{"affine maps", affine, affineGo, 1 << 16, sparse},
}

// i64Ops and f32Ops check 64-bit and float shuffles.
var (
	i64Ops = []operator[int64]{
		{"add", dsl.I64.Add, func(a, b int64) int64 { return a + b }, 0, func(r *rand.Rand) int64 { return int64(r.Uint64()) }},
		{"min", dsl.I64.Min, func(a, b int64) int64 { return min(a, b) }, math.MaxInt64,
			func(r *rand.Rand) int64 { return int64(r.Uint64()) }},
	}
	f32Ops = []operator[float32]{
		{"max", dsl.F32.Max, func(a, b float32) float32 { return max(a, b) }, float32(math.Inf(-1)),
			func(r *rand.Rand) float32 { return float32(r.NormFloat64()) }},
	}
)

// values returns n values for o from seed.
func (o operator[T]) values(seed uint64, n int) []T {
	r := rand.New(rand.NewPCG(seed, 0x5ca1ab1e))
	xs := make([]T, n)
	for i := range xs {
		xs[i] = o.value(r)
	}
	return xs
}

// scan returns the inclusive scan, the exclusive scan and the total of xs
// under o, combined in order.
func (o operator[T]) scan(xs []T) (inclusive, exclusive []T, total T) {
	inclusive, exclusive = make([]T, len(xs)), make([]T, len(xs))
	total = o.identity
	for i, x := range xs {
		exclusive[i] = total
		if i == 0 {
			total = x
		} else {
			total = o.apply(total, x)
		}
		inclusive[i] = total
	}
	return inclusive, exclusive, total
}

// run builds k, runs it on dev with in and outputs of the given lengths,
// and returns the outputs.
func run[T dsl.Number](dev runtime.Device, k *dsl.Kernel, in []T, outs ...int) ([][]T, error) {
	kernel, err := k.Build()
	if err != nil {
		return nil, err
	}
	fn, err := dev.Load(kernel)
	if err != nil {
		return nil, err
	}
	inb, err := runtime.FromSlice(dev, in)
	if err != nil {
		return nil, err
	}
	defer inb.Free()
	args := []any{inb}
	var bufs []*runtime.Buffer[T]
	for _, n := range outs {
		b, err := runtime.Alloc[T](dev, n)
		if err != nil {
			return nil, err
		}
		defer b.Free()
		bufs = append(bufs, b)
		args = append(args, b)
	}
	if err := dev.Launch(fn, runtime.LaunchConfig{}, args...); err != nil {
		return nil, err
	}
	got := make([][]T, len(bufs))
	for i, b := range bufs {
		if got[i], err = b.ToSlice(); err != nil {
			return nil, err
		}
	}
	return got, nil
}

// differ returns a message naming the first index where got and want
// differ, or "".
func differ[T comparable](what string, got, want []T) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%s: %d elements, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Sprintf("%s[%d] = %v, want %v", what, i, got[i], want[i])
		}
	}
	return ""
}
