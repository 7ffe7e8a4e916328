package dsl

import (
	"fmt"

	"github.com/obsidian-go/obsidian/ir"
)

// Array is an array in GPU memory: a global array parameter of the kernel,
// or a shared array of a block. It belongs to the kernel that declared it.
// The zero Array (never declared) may not be used: a kernel that does fails
// to build.
type Array[T Scalar] struct {
	a *ir.Array
	k *Kernel
}

// zeroArray is what a use of the zero Array is reported as.
const zeroArray = "a zero Array (arrays come from Input, Output, InOut or Shared)"

// IR returns the array's IR node (nil for the zero Array).
func (a Array[T]) IR() *ir.Array { return a.a }

// Len returns the number of elements.
func (a Array[T]) Len() U32 {
	if a.a == nil {
		return invalid[uint32]("length of " + zeroArray)
	}
	return U32{e: &ir.Len{Array: a.a}}
}

// At reads element i.
func (a Array[T]) At(i U32) Exp[T] {
	if a.a == nil {
		return invalid[T]("read of " + zeroArray)
	}
	return build[T](func() ir.Expr { return &ir.Load{Array: a.a, Index: i.IR(), Pos: callerPos()} }, i)
}

// Store writes v at index i. A store to a global array at or past its
// length writes nothing.
func (a Array[T]) Store(t *Thread, i U32, v Exp[T]) { a.store(t, i, v, false) }

// StoreSame writes v at index i, where many threads may write the same
// value at one index at once (as occurs does); the evaluator then does not
// report those writes as a race, but still checks the values are equal.
func (a Array[T]) StoreSame(t *Thread, i U32, v Exp[T]) { a.store(t, i, v, true) }

// open returns the scope a statement on a adds to through t, or nil after
// reporting why it cannot.
func (a Array[T]) open(t *Thread, op string, pos ir.Pos) *scope {
	s := open(t, op, pos)
	if s != nil && a.a == nil {
		s.k.errorf(pos, "%s on %s", op, zeroArray)
		return nil
	}
	return s
}

func (a Array[T]) store(t *Thread, i U32, v Exp[T], same bool) {
	pos := callerPos()
	if s := a.open(t, "Store", pos); s != nil {
		s.add(&ir.Store{Array: a.a, Index: i.IR(), Value: v.IR(), SameValue: same, Pos: pos})
	}
}

// AtomicOp is an atomic read-modify-write operation (see ir.AtomicOp).
type AtomicOp = ir.AtomicOp

// The atomic operations, with CUDA's semantics.
const (
	AtomicAdd  = ir.AtomicAdd
	AtomicSub  = ir.AtomicSub
	AtomicInc  = ir.AtomicInc
	AtomicDec  = ir.AtomicDec
	AtomicMin  = ir.AtomicMin
	AtomicMax  = ir.AtomicMax
	AtomicAnd  = ir.AtomicAnd
	AtomicOr   = ir.AtomicOr
	AtomicXor  = ir.AtomicXor
	AtomicExch = ir.AtomicExch
)

// Atomic applies op with operand v to element i atomically, discarding the
// old value.
func (a Array[T]) Atomic(t *Thread, op AtomicOp, i U32, v Exp[T]) {
	pos := callerPos()
	if s := a.open(t, "Atomic"+op.String(), pos); s != nil {
		s.add(&ir.Atomic{Op: op, Array: a.a, Index: i.IR(), Value: v.IR(), Pos: pos})
	}
}

// Fetch applies op with operand v to element i atomically and returns the
// old value.
func (a Array[T]) Fetch(t *Thread, op AtomicOp, i U32, v Exp[T]) Exp[T] {
	return a.fetch(t, &ir.Atomic{Op: op, Array: a.a, Index: i.IR(), Value: v.IR()})
}

// CAS compares element i with cmp and, if equal, replaces it with v,
// atomically; it returns the old value.
func (a Array[T]) CAS(t *Thread, i U32, cmp, v Exp[T]) Exp[T] {
	return a.fetch(t, &ir.Atomic{Op: ir.AtomicCAS, Array: a.a, Index: i.IR(), Value: v.IR(), Compare: cmp.IR()})
}

func (a Array[T]) fetch(t *Thread, st *ir.Atomic) Exp[T] {
	pos := callerPos()
	op := "Atomic" + st.Op.String()
	s := a.open(t, op, pos)
	if s == nil {
		return invalid[T]("use of the result of an " + op + " that failed")
	}
	st.Pos = pos
	st.Result = s.k.newVar("old", a.a.Elem)
	s.add(&ir.Decl{Var: st.Result, Init: &ir.Const{Value: ir.Value{T: a.a.Elem}}, Pos: pos})
	s.add(st)
	return Exp[T]{e: st.Result}
}

// Shared allocates an array of n elements in the block's shared memory.
// Its space may be reused by another shared array once it is no longer
// used (codegen's layout pass decides, by liveness). The array belongs to
// the body of the ForAllBlocks that b builds: it may be used only there.
// An n below 1, or one whose bytes exceed the device's shared memory, is
// an error.
func Shared[T Scalar](b *Block, n int) Array[T] {
	pos := callerPos()
	s := open(b, "Shared", pos)
	if s == nil {
		return Array[T]{}
	}
	k := s.k
	a := &ir.Array{Name: k.fresh("sh"), Elem: TypeOf[T](), Space: ir.Shared, Access: ir.ReadWrite, Size: n, Pos: pos}
	if n <= 0 {
		k.errorf(pos, "shared array of %d elements", n)
	}
	k.arrays[a] = true
	k.ir.Shared = append(k.ir.Shared, a)
	return Array[T]{a: a, k: k}
}

// ShuffleMode selects a warp shuffle (see ir.ShuffleMode).
type ShuffleMode = ir.ShuffleMode

// The shuffle modes.
const (
	ShuffleIdx  = ir.ShuffleIdx
	ShuffleUp   = ir.ShuffleUp
	ShuffleDown = ir.ShuffleDown
	ShuffleXor  = ir.ShuffleXor
)

// Shuffle returns v as held by another lane of the warp: lane (Idx), the
// lane delta below (Up) or above (Down), or lane ^ mask (Xor). All 32
// lanes of the warp must take part.
func Shuffle[T Number](t *Thread, mode ShuffleMode, v Exp[T], lane U32) Exp[T] {
	pos := callerPos()
	what := fmt.Sprintf("Shuffle(mode %d)", mode)
	s := open(t, what, pos)
	if s == nil {
		return invalid[T]("use of the result of a " + what + " that failed")
	}
	r := s.k.newVar("shfl", TypeOf[T]())
	s.add(&ir.Decl{Var: r, Init: &ir.Const{Value: ir.Value{T: r.T}}, Pos: pos})
	s.add(&ir.Shuffle{Mode: mode, Result: r, Value: v.IR(), Lane: lane.IR(), Pos: pos})
	return Exp[T]{e: r}
}

// Ballot returns the mask of the lanes of the warp whose pred holds. All 32
// lanes of the warp must take part.
func Ballot(t *Thread, pred Bool) U32 {
	pos := callerPos()
	s := open(t, "Ballot", pos)
	if s == nil {
		return invalid[uint32]("use of the result of a Ballot that failed")
	}
	r := s.k.newVar("ballot", ir.Uint32)
	s.add(&ir.Decl{Var: r, Init: &ir.Const{Value: ir.Value{T: ir.Uint32}}, Pos: pos})
	s.add(&ir.Ballot{Result: r, Pred: pred.IR(), Pos: pos})
	return U32{e: r}
}

// MatchAny returns the mask of the lanes of the warp whose v equals this
// lane's: CUDA's __match_any_sync (sm_70 and later). v is a 32 or 64-bit
// integer, or a float compared by its bits (so -0 and +0 differ and a NaN
// matches the NaNs of its bits); another type is an error at the line
// that calls it. All 32 lanes of the warp must take part.
func MatchAny[T Number](t *Thread, v Exp[T]) U32 {
	pos := callerPos()
	s := open(t, "MatchAny", pos)
	if s == nil {
		return invalid[uint32]("use of the result of a MatchAny that failed")
	}
	r := s.k.newVar("peers", ir.Uint32)
	s.add(&ir.Decl{Var: r, Init: &ir.Const{Value: ir.Value{T: ir.Uint32}}, Pos: pos})
	s.add(&ir.MatchAny{Result: r, Value: v.IR(), Pos: pos})
	return U32{e: r}
}
