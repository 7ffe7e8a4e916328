package ir

import "testing"

func TestAtomicSupported(t *testing.T) {
	// want lists, for each operation, the element types CUDA has it for.
	want := map[AtomicOp][]Type{
		AtomicAdd:   {Int32, Uint32, Int64, Uint64, Float32, Float64},
		AtomicSub:   {Int32, Uint32},
		AtomicInc:   {Uint32},
		AtomicDec:   {Uint32},
		AtomicMin:   {Int32, Uint32, Int64, Uint64},
		AtomicMax:   {Int32, Uint32, Int64, Uint64},
		AtomicAnd:   {Int32, Uint32, Int64, Uint64},
		AtomicOr:    {Int32, Uint32, Int64, Uint64},
		AtomicXor:   {Int32, Uint32, Int64, Uint64},
		AtomicExch:  {Int32, Uint32, Int64, Uint64, Float32},
		AtomicCAS:   {Int32, Uint32, Int64, Uint64},
		AtomicLoad:  {Int32, Uint32, Int64, Uint64, Float32, Float64},
		AtomicStore: {Int32, Uint32, Int64, Uint64, Float32, Float64},
	}
	types := append([]Type{NoType, Float64 + 1}, Types...)
	for op := AtomicOp(0); op <= AtomicStore+1; op++ {
		for _, ty := range types {
			expected := false
			for _, u := range want[op] {
				expected = expected || u == ty
			}
			if got := AtomicSupported(op, ty); got != expected {
				t.Errorf("AtomicSupported(%v, %v) = %v, want %v", op, ty, got, expected)
			}
		}
	}
}

func TestOrderAllowed(t *testing.T) {
	for op := AtomicAdd; op <= AtomicStore; op++ {
		for o := Relaxed; o <= Release+1; o++ {
			want := o == Relaxed || o == Acquire && op == AtomicLoad || o == Release && op == AtomicStore
			if got := OrderAllowed(op, o); got != want {
				t.Errorf("OrderAllowed(%v, %v) = %v, want %v", op, o, got, want)
			}
		}
	}
}
