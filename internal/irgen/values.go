package irgen

import (
	"math"
	"math/rand"

	"github.com/obsidian-go/obsidian/ir"
)

// edgeValues lists, per type, the values where arithmetic goes wrong most
// often: zeros, ones, the extremes of integer types, and the special values
// of floating-point types.
var edgeValues = map[ir.Type][]ir.Value{
	ir.Bool: {ir.BoolValue(false), ir.BoolValue(true)},
	ir.Int32: ints(ir.Int32, 0, 1, -1, 2, 31, 32, math.MinInt32, math.MaxInt32, math.MinInt32+1,
		math.MaxInt16+1),
	ir.Uint32: uints(ir.Uint32, 0, 1, 2, 31, 32, math.MaxUint32, math.MaxUint32-1, 1<<31, 1<<31-1),
	ir.Int64: ints(ir.Int64, 0, 1, -1, 2, 63, 64, math.MinInt64, math.MaxInt64, math.MinInt64+1,
		math.MinInt32, math.MaxUint32),
	ir.Uint64: uints(ir.Uint64, 0, 1, 2, 63, 64, math.MaxUint64, math.MaxUint64-1, 1<<63, 1<<63-1,
		math.MaxUint32, 1<<32),
	ir.Float32: floats(ir.Float32, 0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, 3, math.NaN(), math.Inf(1),
		math.Inf(-1), math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 0x1p-126, 0x1p31, -0x1p31,
		0x1p32, 0x1p63, 0x1p64, 16777217, 0.1),
	ir.Float64: floats(ir.Float64, 0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, 3, math.NaN(), math.Inf(1),
		math.Inf(-1), math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 0x1p-1022, 0x1p31,
		-0x1p31, 0x1p32, 0x1p63, -0x1p63, 0x1p64, 0.1, 4294967295.5),
}

func ints(t ir.Type, vs ...int64) []ir.Value {
	out := make([]ir.Value, len(vs))
	for i, v := range vs {
		out[i] = ir.IntValue(t, v)
	}
	return out
}

func uints(t ir.Type, vs ...uint64) []ir.Value {
	out := make([]ir.Value, len(vs))
	for i, v := range vs {
		out[i] = ir.UintValue(t, v)
	}
	return out
}

func floats(t ir.Type, vs ...float64) []ir.Value {
	out := make([]ir.Value, len(vs))
	for i, v := range vs {
		out[i] = ir.FloatValue(t, v)
	}
	return out
}

// Value returns a random value of type t: an edge value, a small number or
// arbitrary bits, each about a third of the time.
func Value(rng *rand.Rand, t ir.Type) ir.Value {
	switch rng.Intn(3) {
	case 0:
		edges := edgeValues[t]
		return edges[rng.Intn(len(edges))]
	case 1:
		small := int64(rng.Intn(21) - 10)
		if t.IsFloat() {
			return ir.FloatValue(t, float64(small)/float64(1+rng.Intn(4)))
		}
		return ir.IntValue(t, small)
	}
	switch {
	case t.IsFloat() && rng.Intn(2) == 0:
		return ir.UintValue(t, rng.Uint64())
	case t == ir.Float32:
		return ir.FloatValue(t, float64(float32(rng.NormFloat64()*math.Pow(10, float64(rng.Intn(13)-6)))))
	case t == ir.Float64:
		return ir.FloatValue(t, rng.NormFloat64()*math.Pow(10, float64(rng.Intn(41)-20)))
	}
	return ir.UintValue(t, rng.Uint64())
}

// zero and one return the constants 0 and 1 (false and true) of type t.
func zero(t ir.Type) ir.Value { return ir.Value{T: t} }

func one(t ir.Type) ir.Value {
	if t.IsFloat() {
		return ir.FloatValue(t, 1)
	}
	return ir.Value{T: t, Bits: 1}
}

// minSigned returns the least value of signed integer type t.
func minSigned(t ir.Type) ir.Value { return ir.IntValue(t, -1<<(t.Bits()-1)) }

func constant(v ir.Value) *ir.Const { return &ir.Const{Value: v} }
