package ir

// Space is the memory an array lives in.
type Space uint8

// The memory spaces.
const (
	Global Space = iota + 1
	Shared
	// Local is memory of one thread (registers, or CUDA's local memory):
	// each thread has its own Size elements.
	Local
	// Constant is a table of constants given when the kernel is built (its
	// Values), read-only, held in CUDA's constant memory: printed as a
	// __constant__ array of the kernel's module, not passed at launch.
	Constant
)

// Spaces lists the memory spaces, in order: code that depends on an
// array's space is tested over all of them.
var Spaces = []Space{Global, Shared, Local, Constant}

// spaceNames names each space, for reports.
var spaceNames = map[Space]string{Global: "global", Shared: "shared", Local: "local", Constant: "constant"}

// String returns the space's name ("global", "constant", ...).
func (s Space) String() string {
	if n, ok := spaceNames[s]; ok {
		return n
	}
	return "space?"
}

// Access says how a kernel may use a global array.
type Access uint8

// The access modes of global arrays. Shared arrays are ReadWrite.
const (
	Input     Access = iota + 1 // read only
	Output                      // written (stores, atomics); never read
	ReadWrite                   // read and written, as in an in-place kernel
)

// String returns the access mode's name.
func (a Access) String() string {
	switch a {
	case Input:
		return "input"
	case Output:
		return "output"
	case ReadWrite:
		return "read-write"
	}
	return "access?"
}

// Array is a global array (a kernel parameter, with its length passed as a
// parameter too), a shared array (Size elements, placed at Offset bytes in
// the block's shared memory by codegen's layout pass), a local array
// (Size elements of each thread) or a constant table (Size elements, its
// Values, with Access Input). Arrays are identified by pointer; Name is
// unique in a kernel.
type Array struct {
	Name   string
	Elem   Type
	Space  Space
	Access Access
	Size   int // shared and local arrays: number of elements
	Offset int // shared arrays: byte offset, set by the layout pass
	// PerWarp marks a shared array of which every warp of the block has its
	// own Size elements, one region after another in the block's order of
	// warps: an index into it is into the region of the warp that uses it,
	// so that the warps of a block never see each other's elements.
	PerWarp bool
	// Held marks a local array that each thread keeps for the whole body
	// of the block that allocates it, across the block's barriers, as
	// CUB's threads keep their items in registers: it may be used in every
	// thread body of that block body, where each thread reaches its own
	// Size elements.
	Held bool
	// Align is, for a global array parameter, the number of bytes (a power
	// of two from the element's size to MaxAlign) that the address of its
	// first element is a multiple of, as its declaration promises: a launch
	// checks it, and the printed kernel tells the compiler, which may then
	// read and write MaxAlign/Elem.Size() consecutive elements at once. 0
	// promises only the element's own alignment.
	Align int
	// Values holds a constant table's elements, Size of them, each of type
	// Elem; nil for the other spaces.
	Values []Value
	Pos    Pos // where the array was declared or allocated
}

// MaxAlign is the largest alignment a global array parameter may declare:
// 16 bytes, the widest load and store of a GPU thread.
const MaxAlign = 16

// Bytes returns the size of Size elements in bytes: a shared array's, or
// one warp's region of a PerWarp array (see Copies).
func (a *Array) Bytes() int { return a.Size * a.Elem.Size() }

// Copies returns how many copies of a's Size elements a block of the given
// threads holds in shared memory: one per warp for a PerWarp array, else 1.
func (a *Array) Copies(threads int) int {
	if a.PerWarp {
		return max(threads/WarpSize, 1)
	}
	return 1
}

// FixedLen reports whether a's length is its Size, known when the kernel is
// built (shared and local arrays, constant tables), rather than a
// parameter of the launch.
func (a *Array) FixedLen() bool { return a.Space == Shared || a.Space == Local || a.Space == Constant }

// Param is a kernel parameter: an array (passed with its length) or a
// scalar. Exactly one of Array and Scalar is set.
type Param struct {
	Array  *Array
	Scalar *Var
}

// Name returns the parameter's name.
func (p Param) Name() string {
	if p.Array != nil {
		return p.Array.Name
	}
	return p.Scalar.Name
}

// Kernel is a GPU kernel: its name, its threads per block, its parameters
// in order, its shared and local arrays and its Grid-level body.
type Kernel struct {
	Name    string
	Threads int // threads per block
	// MinBlocks, when not 0, is the number of blocks of the kernel that
	// each multiprocessor must be able to hold at once: the compiler keeps
	// the kernel's registers few enough for them (CUDA's second argument
	// of __launch_bounds__).
	MinBlocks int
	Params    []Param
	Shared    []*Array
	Locals    []*Array // the local arrays, each thread's own
	// Constants holds the constant tables, in the order they were
	// declared.
	Constants []*Array
	Body      []Stmt
	// Blocks is the number of blocks a launch needs to cover the kernel's
	// work, as an expression over parameters (scalars and array lengths) and
	// constants. A launch may use fewer: every Grid-level ForAll loops.
	Blocks Expr
	// SharedBytes is the shared memory a block uses, set by the layout pass.
	SharedBytes int
	// Verified says that the kernel passed check.Verify as it is: the dsl's
	// Build sets it, and codegen.Compile then does not verify it again. Code
	// that changes a kernel must clear it.
	Verified bool
	// Pos is where the kernel was defined.
	Pos Pos
}

// WalkStmts calls f for every statement of body in order, depth first,
// parents before children. If f returns false the children of that
// statement are skipped.
func WalkStmts(body []Stmt, f func(Stmt) bool) {
	for _, s := range body {
		if !f(s) {
			continue
		}
		switch s := s.(type) {
		case *If:
			WalkStmts(s.Then, f)
			WalkStmts(s.Else, f)
		case *For:
			WalkStmts(s.Body, f)
		case *While:
			WalkStmts(s.Body, f)
		case *ForAll:
			WalkStmts(s.Body, f)
		}
	}
}

// WalkExpr calls f for e and every sub-expression of e, parents first.
func WalkExpr(e Expr, f func(Expr)) {
	if e == nil {
		return
	}
	f(e)
	for _, c := range Children(e) {
		WalkExpr(c, f)
	}
}

// Children returns the operands of e, in evaluation order: none for
// leaves.
func Children(e Expr) []Expr {
	switch e := e.(type) {
	case *Unary:
		return []Expr{e.X}
	case *Binary:
		return []Expr{e.X, e.Y}
	case *Ternary:
		return []Expr{e.X, e.Y, e.Z}
	case *Select:
		return []Expr{e.Cond, e.Then, e.Else}
	case *Convert:
		return []Expr{e.X}
	case *Load:
		return []Expr{e.Index}
	}
	return nil
}

// Exprs returns the expressions a statement holds directly (not those of
// nested statements), in a fixed order.
func Exprs(s Stmt) []Expr {
	var es []Expr
	add := func(xs ...Expr) {
		for _, x := range xs {
			if x != nil {
				es = append(es, x)
			}
		}
	}
	switch s := s.(type) {
	case *Decl:
		add(s.Init)
	case *Assign:
		add(s.Value)
	case *Store:
		add(s.Index, s.Value)
	case *If:
		add(s.Cond)
	case *For:
		add(s.Count)
	case *While:
		add(s.Cond)
	case *ForAll:
		add(s.Count)
	case *Atomic:
		add(s.Index, s.Value, s.Compare)
	case *Shuffle:
		add(s.Value, s.Lane)
	case *Ballot:
		add(s.Pred)
	case *MatchAny:
		add(s.Value)
	}
	return es
}

// MapExpr returns e rebuilt top-down through f: where f returns (r, true),
// r replaces that subexpression; elsewhere the node is rebuilt from its
// children's results (leaves are kept as they are). e itself is unchanged.
func MapExpr(e Expr, f func(Expr) (Expr, bool)) Expr {
	if e == nil {
		return nil
	}
	if r, ok := f(e); ok {
		return r
	}
	m := func(x Expr) Expr { return MapExpr(x, f) }
	switch e := e.(type) {
	case *Unary:
		return &Unary{Op: e.Op, X: m(e.X)}
	case *Binary:
		return &Binary{Op: e.Op, X: m(e.X), Y: m(e.Y)}
	case *Ternary:
		return &Ternary{Op: e.Op, X: m(e.X), Y: m(e.Y), Z: m(e.Z)}
	case *Select:
		return &Select{Cond: m(e.Cond), Then: m(e.Then), Else: m(e.Else)}
	case *Convert:
		return &Convert{To: e.To, X: m(e.X)}
	case *Load:
		return &Load{Array: e.Array, Index: m(e.Index), Pos: e.Pos}
	}
	return e
}
