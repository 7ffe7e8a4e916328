package dsl

import (
	"fmt"

	"github.com/obsidian-go/obsidian/check"
	"github.com/obsidian-go/obsidian/ir"
)

// Array is an array in GPU memory: a global array parameter of the kernel,
// a shared array of a block (or of each of its warps), a local array of
// each thread, or a constant table (ConstTable). It belongs to the kernel that declared it.
// The zero Array (never declared) may not be used: a kernel that does fails
// to build.
type Array[T Scalar] struct {
	a *ir.Array
	k *Kernel
}

// zeroArray is what a use of the zero Array is reported as.
const zeroArray = "a zero Array (arrays come from Input, Output, InOut, Shared, WarpShared, Local or ConstTable)"

// IR returns the array's IR node (nil for the zero Array).
func (a Array[T]) IR() *ir.Array { return a.a }

// Len returns the number of elements.
func (a Array[T]) Len() U32 {
	if a.a == nil {
		return invalid[uint32]("length of " + zeroArray)
	}
	if a.a.Space == ir.Constant { // known now, so that combinators see a constant
		return N(uint32(a.a.Size))
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
	switch {
	case s != nil && a.a == nil:
		s.k.errorf(pos, "%s on %s", op, zeroArray)
		return nil
	case s != nil && a.a.Space == ir.Constant:
		s.k.errorf(pos, "%s on constant table %s, which is read-only: read it with At", op, a.a.Name)
		return nil
	}
	return s
}

// CopyAsync copies element j of src, a global array, to index i of a, a
// shared one, without holding it in the thread's registers (cp.async): the
// thread goes on at once, and the element lands by the block's next
// barrier (Block.Sync, which waits for the thread's copies). Until that
// barrier no thread, the copying one included, may read or write a[i]; the
// evaluator reports such an access as a race. A tile loaded this way
// spends its loads' latency on whatever the block does before the barrier.
// The elements must be of 4 or 8 bytes, and j below src's length.
func (a Array[T]) CopyAsync(t *Thread, i U32, src Array[T], j U32) {
	pos := callerPos()
	if s := a.open(t, "CopyAsync", pos); s != nil {
		if src.a == nil {
			s.k.errorf(pos, "CopyAsync from %s", zeroArray)
			return
		}
		load := &ir.Load{Array: src.a, Index: j.IR(), Pos: pos}
		s.add(&ir.Store{Array: a.a, Index: i.IR(), Value: load, Async: true, Pos: pos})
	}
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

// MemOrder is the memory ordering of an atomic load or store, at GPU scope
// (see ir.MemOrder).
type MemOrder = ir.MemOrder

// The memory orderings.
const (
	Relaxed = ir.Relaxed // atomic, ordering nothing else
	Acquire = ir.Acquire // for AtomicLoad: later accesses stay after it
	Release = ir.Release // for AtomicStore: earlier accesses stay before it
)

// AtomicLoad reads element i atomically with ordering order, Relaxed or
// Acquire, and returns it: an access that synchronises threads, which the
// evaluator never reports as a race, and which always sees the latest
// value written. It is how a thread waits for another block, in a loop
// that reads a flag that block sets with AtomicStore: a loop that reads
// with AtomicLoad and waits for what no block ever writes is reported by
// the evaluator instead of running forever. The array must be writable
// (an Output or InOut, or shared): an Input never changes.
func (a Array[T]) AtomicLoad(t *Thread, i U32, order MemOrder) Exp[T] {
	return a.fetch(t, &ir.Atomic{Op: ir.AtomicLoad, Order: order, Array: a.a, Index: i.IR()})
}

// AtomicStore writes v at element i atomically with ordering order,
// Relaxed or Release (see AtomicLoad). A store to a global array at or
// past its length writes nothing.
func (a Array[T]) AtomicStore(t *Thread, i U32, v Exp[T], order MemOrder) {
	pos := callerPos()
	if s := a.open(t, "AtomicStore", pos); s != nil {
		s.add(&ir.Atomic{Op: ir.AtomicStore, Order: order, Array: a.a, Index: i.IR(), Value: v.IR(), Pos: pos})
	}
}

// Fence orders the thread's memory accesses: those before it happen before
// those after it for every thread of the launch (__threadfence()). A Relaxed
// AtomicStore after a Fence publishes what the thread wrote before it, as
// a Release store does; a Fence after a Relaxed AtomicLoad acquires.
func Fence(t *Thread) {
	pos := callerPos()
	if s := open(t, "Fence", pos); s != nil {
		s.add(&ir.Fence{Pos: pos})
	}
}

// Sleep suspends the thread for about nanos nanoseconds (__nanosleep): the
// backoff of a thread that polls memory for other threads' results, which
// leaves the memory system to the threads it waits for. It changes nothing
// else. nanos above ir.MaxSleepNanos (a millisecond) is an error.
func Sleep(t *Thread, nanos uint32) {
	pos := callerPos()
	if s := open(t, "Sleep", pos); s != nil {
		s.add(&ir.Sleep{Nanos: nanos, Pos: pos})
	}
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
	return allocate[T](b, "Shared", &ir.Array{Space: ir.Shared, Size: n}, "sh")
}

// WarpShared allocates an array of n elements in shared memory of which
// every warp of the block has its own: the block's shared memory holds n
// elements per warp, and an index is into the region of the warp that
// uses the array, which no other warp sees. The array belongs to the body
// of the ForAllWarps that w builds (and to its block's body): it may be
// used only there, by that warp's lanes, which meet at Warp.Sync. An n
// below 1, or one whose bytes for every warp exceed the device's shared
// memory, is an error.
func WarpShared[T Scalar](w *Warp, n int) Array[T] {
	return allocate[T](w, "WarpShared", &ir.Array{Space: ir.Shared, PerWarp: true, Size: n}, "wsh")
}

// Local allocates an array of n elements of which each thread has its own
// (in registers, or in CUDA's local memory when it is indexed by values
// the compiler cannot resolve), printed as T name[n]. It belongs to the
// body of the ForAll that runs t: it may be used only there, by the
// thread itself, so it needs no barrier. An n below 1, or one of more than
// check.MaxLocalBytes bytes, is an error.
func Local[T Scalar](t *Thread, n int) Array[T] {
	return allocate[T](t, "Local", &ir.Array{Space: ir.Local, Size: n}, "loc")
}

// Held allocates an array of n elements of which each thread of the block
// keeps its own for the whole block body, across its barriers (Block.Sync):
// the items a CUB thread keeps in registers from a tile's load to its
// store. It is used in the thread bodies of the block's ForAlls, where
// each thread reaches its own elements: iteration i of a Block.ForAll runs
// in thread i mod the block's threads (and lane l of warp w's ForAll in
// thread 32w + l), so an element a thread stores in one ForAll is the
// one it reads in the next. It stays in registers when every index into it
// is a constant of the program (a Go loop, or a loop the compiler unrolls);
// otherwise it lives in CUDA's local memory. An n below 1, or one of more
// than check.MaxLocalBytes bytes, is an error, as is a use in the code of
// the block itself, outside any thread body.
func Held[T Scalar](b *Block, n int) Array[T] {
	return allocate[T](b, "Held", &ir.Array{Space: ir.Local, Held: true, Size: n}, "held")
}

// allocate records a, an array of memory that the kernel allocates (not a
// parameter), for what through p, naming it after hint; a gives its space
// and size.
func allocate[T Scalar](p Program, what string, a *ir.Array, hint string) Array[T] {
	pos := callerPos()
	s := open(p, what, pos)
	if s == nil {
		return Array[T]{}
	}
	k := s.k
	a.Name, a.Elem, a.Access, a.Pos = k.fresh(hint), TypeOf[T](), ir.ReadWrite, pos
	kind := "shared"
	if a.Space == ir.Local {
		kind = "local"
	}
	switch {
	case a.Size <= 0:
		k.errorf(pos, "%s array of %d elements", kind, a.Size)
	case a.Space == ir.Local && a.Size > check.MaxLocalBytes/a.Elem.Size():
		k.errorf(pos, "local array of %d elements of %v: a thread's array may have at most %d bytes", a.Size,
			a.Elem, check.MaxLocalBytes)
	}
	k.arrays[a] = true
	if a.Space == ir.Local {
		k.ir.Locals = append(k.ir.Locals, a)
	} else {
		k.ir.Shared = append(k.ir.Shared, a)
	}
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
// lanes of the warp must take part. Up and Down leave a lane whose source
// lies past the warp's edge its own v. The lane, delta or mask must lie in
// 0 to 31: the CPU device reports any other, since the GPU would use its
// low five bits instead.
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

// Agree returns the mask of the lanes of the warp whose pred equals this
// lane's: the lanes that agree with it, itself included (Ballot of pred
// where pred holds, its complement where it does not). ANDed over the bits
// of a small digit it gives the lanes with the same digit, one vote per
// bit. All 32 lanes of the warp must take part.
func Agree(t *Thread, pred Bool) U32 {
	pos := callerPos()
	s := open(t, "Agree", pos)
	if s == nil {
		return invalid[uint32]("use of the result of an Agree that failed")
	}
	r := s.k.newVar("agree", ir.Uint32)
	s.add(&ir.Decl{Var: r, Init: &ir.Const{Value: ir.Value{T: ir.Uint32}}, Pos: pos})
	s.add(&ir.Ballot{Result: r, Pred: pred.IR(), Agree: true, Pos: pos})
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

// Aligned declares that the data of a, a global array parameter, starts at
// an address that is a multiple of bytes: a power of two from the
// element's size to ir.MaxAlign (16). Every launch checks it, on every
// device, and fails naming the parameter when a buffer's view starts
// elsewhere; the compiler may then read and write the 16/size consecutive
// elements from an index that is a multiple of 16/size as one access.
// Buffers from runtime.Alloc are aligned to at least 16 bytes; a view of
// one is when its first element's byte offset is a multiple of bytes. It
// returns a, for chaining: dsl.Input[uint32](k, "in").Aligned(16).
func (a Array[T]) Aligned(bytes int) Array[T] {
	pos := callerPos()
	switch {
	case a.a == nil:
		if k := reportTo(nil); k != nil {
			k.errorf(pos, "Aligned on %s", zeroArray)
		}
	default:
		if err := check.CheckAlign(a.a.Space, a.a.Elem, bytes); err != nil {
			a.k.errorf(pos, "array %s: %v", a.a.Name, err)
		} else if a.k.hasBody {
			a.k.errorf(pos, "array %s: Aligned in or after the kernel's body; declare the alignment with the "+
				"parameter", a.a.Name)
		} else {
			a.a.Align = bytes
		}
	}
	return a
}
