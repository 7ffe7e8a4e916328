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
	ir.Int8:   ints(ir.Int8, 0, 1, -1, 2, 7, 8, math.MinInt8, math.MaxInt8, math.MinInt8+1),
	ir.Uint8:  uints(ir.Uint8, 0, 1, 2, 7, 8, math.MaxUint8, math.MaxUint8-1, 1<<7, 1<<7-1),
	ir.Int16:  ints(ir.Int16, 0, 1, -1, 2, 15, 16, math.MinInt16, math.MaxInt16, math.MinInt16+1, 255, 256),
	ir.Uint16: uints(ir.Uint16, 0, 1, 2, 15, 16, math.MaxUint16, math.MaxUint16-1, 1<<15, 1<<15-1, 255, 256),
	// the storage floats: zeros, ones, the largest finite, the smallest
	// normal and subnormal, infinities, NaNs
	ir.Float16: uints(ir.Float16, 0, 0x8000, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x0400, 0x0001, 0x8001, 0x7c00,
		0xfc00, 0x7e00, 0x7c01),
	ir.BFloat16: uints(ir.BFloat16, 0, 0x8000, 0x3f80, 0xbf80, 0x7f7f, 0xff7f, 0x0080, 0x0001, 0x8001, 0x7f80,
		0xff80, 0x7fc0, 0x7f81),
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
		if t.IsFloat() || t.IsStorageFloat() {
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
