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
	}
	return false
}
