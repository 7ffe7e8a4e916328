package ir

// AtomicSupported reports whether CUDA has the atomic operation op on
// elements of type t. The table, which codegen checks kernels against and
// the evaluator follows, is:
//
//	Add            int32 uint32 int64 uint64 float32 float64
//	Sub            int32 uint32
//	Inc, Dec       uint32
//	Min, Max       int32 uint32 int64 uint64
//	And, Or, Xor   int32 uint32 int64 uint64
//	Exch           int32 uint32 int64 uint64 float32
//	CAS            int32 uint32 int64 uint64
//	Load, Store    int32 uint32 int64 uint64 float32 float64
//
// Any other pair, an unknown op, an invalid or bool t, or a type narrower
// than 32 bits is unsupported.
func AtomicSupported(op AtomicOp, t Type) bool {
	if t.Size() < 4 {
		return false
	}
	switch op {
	case AtomicAdd:
		return t.IsNumeric()
	case AtomicSub:
		return t == Int32 || t == Uint32
	case AtomicInc, AtomicDec:
		return t == Uint32
	case AtomicMin, AtomicMax, AtomicAnd, AtomicOr, AtomicXor, AtomicCAS:
		return t.IsInteger()
	case AtomicExch:
		return t.IsInteger() || t == Float32
	case AtomicLoad, AtomicStore:
		return t.IsNumeric()
	}
	return false
}

// OrderAllowed reports whether atomic op may have memory ordering o: a
// Load Relaxed or Acquire, a Store Relaxed or Release, the read-modify-write
// operations Relaxed only.
func OrderAllowed(op AtomicOp, o MemOrder) bool {
	switch o {
	case Relaxed:
		return true
	case Acquire:
		return op == AtomicLoad
	case Release:
		return op == AtomicStore
	}
	return false
}
