package ir

import "fmt"

// Stmt is a statement. The implementations are the types of this file.
type Stmt interface {
	// Position returns the user's Go line that built the statement.
	Position() Pos
	isStmt()
}

// Level is a level of the GPU hierarchy at which a program runs.
type Level uint8

// The levels, outermost first.
const (
	GridLevel Level = iota + 1
	BlockLevel
	WarpLevel
	ThreadLevel
)

// String returns the level's name.
func (l Level) String() string {
	switch l {
	case GridLevel:
		return "Grid"
	case BlockLevel:
		return "Block"
	case WarpLevel:
		return "Warp"
	case ThreadLevel:
		return "Thread"
	}
	return "Level?"
}

// Decl declares the local variable Var and initialises it.
type Decl struct {
	Var  *Var
	Init Expr
	Pos  Pos
}

// Assign assigns Value to an already declared variable.
type Assign struct {
	Var   *Var
	Value Expr
	Pos   Pos
}

// Store writes Array[Index] = Value. A store to a global array whose index is
// not below the array's length writes nothing on the GPU (the printer guards
// it) and is reported by the evaluator.
//
// SameValue marks a store that many threads may perform at one address in
// one barrier interval provided they all write the same value (as occurs
// does); the evaluator reports any other concurrent plain writes as a race.
//
// Async marks an asynchronous copy (cp.async, sm_80 and later): Array is
// shared, Value a Load of a global array of the same 4- or 8-byte element
// type, and the element moves from global memory to shared memory without
// passing through the thread's registers. The copy completes at the
// block's next barrier (every block-level Sync waits for the thread's
// copies first); until then no thread, the copying one included, may read
// or write Array[Index].
type Store struct {
	Array     *Array
	Index     Expr
	Value     Expr
	SameValue bool
	Async     bool
	Pos       Pos
}

// AsyncSource returns the Load an asynchronous copy reads, or nil when s
// is not one or its Value is not a Load.
func (s *Store) AsyncSource() *Load {
	if !s.Async {
		return nil
	}
	l, _ := s.Value.(*Load)
	return l
}

// AsyncCopySizes are the sizes in bytes of the elements an asynchronous
// copy moves (cp.async copies 4, 8 or 16 bytes; no scalar is 16).
var AsyncCopySizes = []int{4, 8}

// If runs Then when Cond holds, Else otherwise.
type If struct {
	Cond Expr
	Then []Stmt
	Else []Stmt
	Pos  Pos
}

// For runs Body for Var = 0, 1, ..., Count-1 sequentially. Var and Count have
// one integer type. Count is evaluated once, before the first iteration.
type For struct {
	Var   *Var
	Count Expr
	Body  []Stmt
	Pos   Pos
}

// While runs Body while Cond holds.
type While struct {
	Cond Expr
	Body []Stmt
	Pos  Pos
}

// ForAllKind says what a ForAll ranges over: its level and its body's level.
type ForAllKind uint8

// The ForAll kinds.
const (
	// GridThreads: Var ranges over global thread indices [0, Count); the
	// body is a Thread program. Printed as a grid-stride loop.
	GridThreads ForAllKind = iota + 1
	// GridBlocks: Var ranges over virtual block indices [0, Count); the body
	// is a Block program. Printed as a block-stride loop.
	GridBlocks
	// BlockThreads: Var ranges over the threads of a block, [0, Count); the
	// body is a Thread program. Count may exceed the block size: the printer
	// then loops (virtualised threads).
	BlockThreads
	// BlockWarps: Var ranges over the warps of a block, [0, Count); the body
	// is a Warp program. Virtualised like BlockThreads.
	BlockWarps
	// WarpLanes: Var ranges over the lanes of a warp, [0, Count) with
	// Count <= 32; the body is a Thread program.
	WarpLanes
)

// Outer returns the level of the program that contains the ForAll.
func (k ForAllKind) Outer() Level {
	switch k {
	case GridThreads, GridBlocks:
		return GridLevel
	case BlockThreads, BlockWarps:
		return BlockLevel
	case WarpLanes:
		return WarpLevel
	}
	return 0
}

// Inner returns the level of the ForAll's body.
func (k ForAllKind) Inner() Level {
	switch k {
	case GridBlocks:
		return BlockLevel
	case BlockWarps:
		return WarpLevel
	case GridThreads, BlockThreads, WarpLanes:
		return ThreadLevel
	}
	return 0
}

// String returns the kind's name.
func (k ForAllKind) String() string {
	switch k {
	case GridThreads:
		return "GridThreads"
	case GridBlocks:
		return "GridBlocks"
	case BlockThreads:
		return "BlockThreads"
	case BlockWarps:
		return "BlockWarps"
	case WarpLanes:
		return "WarpLanes"
	}
	return "ForAllKind?"
}

// ForAll runs Body in parallel for Var in [0, Count). Var and Count are
// Uint32. Iterations must not depend on each other except through the
// barriers of the body's level.
type ForAll struct {
	Kind  ForAllKind
	Var   *Var
	Count Expr
	Body  []Stmt
	// Unroll asks the compiler to unroll by Unroll the loop each unit
	// (thread, warp, lane or block) runs over its indices; 0 leaves it
	// to the compiler. It changes how the loop runs, not what it does.
	Unroll int
	Pos    Pos
}

// MaxUnroll is the largest factor a ForAll may ask its loop to be
// unrolled by: past it the copies of a body outgrow what unrolling saves.
const MaxUnroll = 64

// Sync is a barrier: __syncthreads() at Block level, __syncwarp() at Warp
// level.
type Sync struct {
	Level Level
	Pos   Pos
}

// AtomicOp is an atomic read-modify-write operation.
type AtomicOp uint8

// The atomic operations, with CUDA's semantics.
const (
	AtomicAdd   AtomicOp = iota + 1
	AtomicSub            // int32, uint32
	AtomicInc            // uint32: old >= Value ? 0 : old+1
	AtomicDec            // uint32: old == 0 || old > Value ? Value : old-1
	AtomicMin            // integers
	AtomicMax            // integers
	AtomicAnd            // integers
	AtomicOr             // integers
	AtomicXor            // integers
	AtomicExch           // swap in Value
	AtomicCAS            // old == Compare ? Value : old
	AtomicLoad           // reads the element (no Value): old
	AtomicStore          // writes Value, returning nothing
)

var atomicNames = [...]string{AtomicAdd: "Add", AtomicSub: "Sub", AtomicInc: "Inc", AtomicDec: "Dec",
	AtomicMin: "Min", AtomicMax: "Max", AtomicAnd: "And", AtomicOr: "Or", AtomicXor: "Xor",
	AtomicExch: "Exch", AtomicCAS: "CAS", AtomicLoad: "Load", AtomicStore: "Store"}

// String returns the operation's name.
func (op AtomicOp) String() string {
	if int(op) < len(atomicNames) && atomicNames[op] != "" {
		return atomicNames[op]
	}
	return "AtomicOp?"
}

// Atomic performs Op on Array[Index] atomically. Result, when not nil, is a
// declared variable that receives the old value (for Load, the value read;
// Store has none). Value is nil for Load; Compare is used by CAS only.
//
// Order is the access's memory ordering at GPU scope (see MemOrder): a
// Load may be Acquire, a Store Release; every other atomic is Relaxed.
type Atomic struct {
	Op      AtomicOp
	Order   MemOrder
	Array   *Array
	Index   Expr
	Value   Expr
	Compare Expr
	Result  *Var
	Pos     Pos
}

// MemOrder is the memory ordering of an atomic access, at GPU scope (all
// the threads of the launch), as in the PTX memory model.
type MemOrder uint8

// The memory orderings.
const (
	// Relaxed: the access is atomic and orders nothing else (CUDA's
	// atomic functions; ld.relaxed.gpu, st.relaxed.gpu).
	Relaxed MemOrder = iota
	// Acquire, for a Load: the thread's later accesses happen after it, so
	// that a thread that reads a value a Release store wrote sees every
	// write made before that store (ld.acquire.gpu).
	Acquire
	// Release, for a Store: the thread's earlier accesses happen before it
	// (st.release.gpu).
	Release
)

var memOrderNames = [...]string{Relaxed: "Relaxed", Acquire: "Acquire", Release: "Release"}

// String returns the ordering's name.
func (o MemOrder) String() string {
	if int(o) < len(memOrderNames) {
		return memOrderNames[o]
	}
	return fmt.Sprintf("MemOrder(%d)", uint8(o))
}

// Fence orders the thread's memory accesses before it before those after
// it, for every thread of the launch (__threadfence()).
type Fence struct {
	Pos Pos
}

// Sleep suspends the thread for about Nanos nanoseconds (__nanosleep,
// sm_70 and later; the hardware may sleep anywhere from 0 to twice as
// long): the backoff of a thread that waits for other threads, leaving
// the memory system to them. It has no other effect.
type Sleep struct {
	Nanos uint32
	Pos   Pos
}

// MaxSleepNanos is the longest Sleep: CUDA's __nanosleep sleeps at most
// about a millisecond.
const MaxSleepNanos = 1_000_000

// ShuffleMode selects a warp shuffle.
type ShuffleMode uint8

// The shuffle modes (__shfl_sync, __shfl_up_sync, __shfl_down_sync,
// __shfl_xor_sync).
const (
	ShuffleIdx ShuffleMode = iota + 1
	ShuffleUp
	ShuffleDown
	ShuffleXor
)

var shuffleNames = [...]string{ShuffleIdx: "Idx", ShuffleUp: "Up", ShuffleDown: "Down", ShuffleXor: "Xor"}

// String returns the mode's name, or "ShuffleMode(n)" for an unknown one.
func (m ShuffleMode) String() string {
	if int(m) < len(shuffleNames) && shuffleNames[m] != "" {
		return shuffleNames[m]
	}
	return fmt.Sprintf("ShuffleMode(%d)", uint8(m))
}

// Shuffle exchanges values between the lanes of a warp: Result receives
// Value from the lane selected by Mode and Lane (a lane index, a delta or a
// xor mask), all 32 lanes taking part. Width is 32.
type Shuffle struct {
	Mode   ShuffleMode
	Result *Var
	Value  Expr
	Lane   Expr
	Pos    Pos
}

// Ballot sets Result (uint32) to the mask of the lanes of the warp whose
// Pred holds, all 32 lanes taking part. With Agree, Result is instead the
// mask of the lanes whose Pred equals this lane's: the ballot in a lane
// whose Pred holds, its complement in one whose Pred does not.
type Ballot struct {
	Result *Var
	Pred   Expr
	Agree  bool
	Pos    Pos
}

// MatchAny sets Result (uint32) to the mask of the lanes of the warp whose
// Value has the same bits as this lane's, all 32 lanes taking part
// (CUDA's __match_any_sync, sm_70 and later). Value is a 32 or 64-bit
// integer or float; floats are compared by their bits.
type MatchAny struct {
	Result *Var
	Value  Expr
	Pos    Pos
}

// Matchable reports whether MatchAny compares values of type t: the 32
// and 64-bit integers and floats, the types __match_any_sync takes.
func Matchable(t Type) bool { return t.IsNumeric() && t.Size() >= 4 }

// Position implements Stmt.
func (s *Decl) Position() Pos { return s.Pos }

// Position implements Stmt.
func (s *Assign) Position() Pos { return s.Pos }

// Position implements Stmt.
func (s *Store) Position() Pos { return s.Pos }

// Position implements Stmt.
func (s *If) Position() Pos { return s.Pos }

// Position implements Stmt.
func (s *For) Position() Pos { return s.Pos }

// Position implements Stmt.
func (s *While) Position() Pos { return s.Pos }

// Position implements Stmt.
func (s *ForAll) Position() Pos { return s.Pos }

// Position implements Stmt.
func (s *Sync) Position() Pos { return s.Pos }

// Position implements Stmt.
func (s *Atomic) Position() Pos { return s.Pos }

// Position implements Stmt.
func (s *Fence) Position() Pos { return s.Pos }

// Position implements Stmt.
func (s *Sleep) Position() Pos { return s.Pos }

// Position implements Stmt.
func (s *Shuffle) Position() Pos { return s.Pos }

// Position implements Stmt.
func (s *Ballot) Position() Pos { return s.Pos }

// Position implements Stmt.
func (s *MatchAny) Position() Pos { return s.Pos }

func (*Decl) isStmt()     {}
func (*Assign) isStmt()   {}
func (*Store) isStmt()    {}
func (*If) isStmt()       {}
func (*For) isStmt()      {}
func (*While) isStmt()    {}
func (*ForAll) isStmt()   {}
func (*Sync) isStmt()     {}
func (*Atomic) isStmt()   {}
func (*Fence) isStmt()    {}
func (*Sleep) isStmt()    {}
func (*Shuffle) isStmt()  {}
func (*Ballot) isStmt()   {}
func (*MatchAny) isStmt() {}
