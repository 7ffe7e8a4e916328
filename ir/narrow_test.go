package ir

import (
	"math/rand"
	"testing"
	"unsafe"

	"github.com/obsidian-go/obsidian/internal/proptest"
)

type narrow interface{ int8 | uint8 | int16 | uint16 }

// goOps computes the operators with Go's own arithmetic on T, reporting
// false where the IR faults.
func goOp[T narrow](op BinOp, x, y T) (any, bool) {
	bits := T(unsafe.Sizeof(x) * 8)
	signed := ^T(0) < 0
	switch op {
	case Add:
		return x + y, true
	case Sub:
		return x - y, true
	case Mul:
		return x * y, true
	case Div, Rem:
		if y == 0 || signed && y == ^T(0) && x == T(1)<<(bits-1) {
			return nil, false
		}
		if op == Div {
			return x / y, true
		}
		return x % y, true
	case And:
		return x & y, true
	case Or:
		return x | y, true
	case Xor:
		return x ^ y, true
	case Shl, Shr:
		if y < 0 || y >= bits {
			return nil, false
		}
		if op == Shl {
			return x << y, true
		}
		return x >> y, true
	case Min:
		return min(x, y), true
	case Max:
		return max(x, y), true
	case Eq:
		return x == y, true
	case Ne:
		return x != y, true
	case Lt:
		return x < y, true
	case Le:
		return x <= y, true
	case Gt:
		return x > y, true
	}
	return x >= y, true
}

func valueOf(x any) Value {
	switch x := x.(type) {
	case bool:
		return BoolValue(x)
	case int8:
		return IntValue(Int8, int64(x))
	case uint8:
		return UintValue(Uint8, uint64(x))
	case int16:
		return IntValue(Int16, int64(x))
	}
	return UintValue(Uint16, uint64(x.(uint16)))
}

func checkNarrow[T narrow](t *testing.T, rng *rand.Rand, edges []T) {
	pick := func() T {
		if rng.Intn(3) == 0 {
			return edges[rng.Intn(len(edges))]
		}
		return T(rng.Uint64())
	}
	for range 3000 {
		x, y := pick(), pick()
		for _, op := range []BinOp{Add, Sub, Mul, Div, Rem, And, Or, Xor, Shl, Shr, Min, Max, Eq, Ne, Lt, Le, Gt, Ge} {
			want, ok := goOp(op, x, y)
			got, fault, applies := op.Operation().Apply(valueOf(x), valueOf(y))
			switch {
			case !applies:
				t.Fatalf("%v does not apply to %T", op, x)
			case ok != (fault == NoFault):
				t.Fatalf("%v %v %v: fault %v, Go faults: %v", x, op, y, fault, !ok)
			case ok && got != valueOf(want):
				t.Fatalf("%T: %v %v %v = %v, want %v", x, x, op, y, got, want)
			}
		}
		if got, _, _ := Neg.Operation().Apply(valueOf(x)); got != valueOf(-x) {
			t.Fatalf("-%v = %v", x, got)
		}
		if got, _, _ := Not.Operation().Apply(valueOf(x)); got != valueOf(^x) {
			t.Fatalf("^%v = %v", x, got)
		}
	}
}

// TestNarrowIntegers compares the operators on 8 and 16-bit integers with
// Go's arithmetic on int8, uint8, int16 and uint16.
func TestNarrowIntegers(t *testing.T) {
	rng := proptest.Parameters(t, 1).Rng
	checkNarrow(t, rng, []int8{0, 1, -1, 7, 8, -128, 127})
	checkNarrow(t, rng, []uint8{0, 1, 7, 8, 255, 128})
	checkNarrow(t, rng, []int16{0, 1, -1, 15, 16, -32768, 32767})
	checkNarrow(t, rng, []uint16{0, 1, 15, 16, 65535, 32768})
}
