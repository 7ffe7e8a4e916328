package check

import (
	"slices"

	"github.com/obsidian-go/obsidian/ir"
)

func (v *verifier) body(body []ir.Stmt) {
	for _, s := range body {
		v.stmt(s)
	}
}

// scoped walks body in a new scope holding the given variables.
func (v *verifier) scoped(body []ir.Stmt, vars ...*ir.Var) {
	s := map[*ir.Var]bool{}
	for _, x := range vars {
		s[x] = true
	}
	v.scopes = append(v.scopes, s)
	v.body(body)
	v.scopes = v.scopes[:len(v.scopes)-1]
}

func (v *verifier) stmt(s ir.Stmt) {
	switch s := s.(type) {
	case nil:
		v.errorf(v.k.Pos, "kernel %s has a nil statement", v.k.Name)
	case *ir.Decl:
		v.decl(s)
	case *ir.Assign:
		v.assign(s)
	case *ir.Store:
		v.store(s)
	case *ir.If:
		v.cond(s.Cond, s.Pos, "if")
		v.control(s, s.Cond, func() {
			v.scoped(s.Then)
			v.scoped(s.Else)
		})
	case *ir.While:
		v.cond(s.Cond, s.Pos, "while")
		v.control(s, s.Cond, func() { v.scoped(s.Body) })
	case *ir.For:
		v.forLoop(s)
	case *ir.ForAll:
		v.forAll(s)
	case *ir.Sync:
		v.sync(s)
	case *ir.Atomic:
		v.atomic(s)
	case *ir.Fence:
		v.atLevel(s.Pos, ir.ThreadLevel, "a fence")
	case *ir.Sleep:
		v.atLevel(s.Pos, ir.ThreadLevel, "a sleep")
		if s.Nanos > ir.MaxSleepNanos {
			v.errorf(s.Pos, "a sleep of %d ns: at most %d (about a millisecond)", s.Nanos, ir.MaxSleepNanos)
		}
	case *ir.Shuffle:
		v.shuffle(s)
	case *ir.Ballot:
		v.ballot(s)
	case *ir.MatchAny:
		v.matchAny(s)
	default:
		v.errorf(s.Position(), "unknown statement %T", s)
	}
}

// declareVar checks a new variable and puts it in the current scope.
func (v *verifier) declareVar(x *ir.Var, pos ir.Pos) bool {
	if x == nil {
		v.errorf(pos, "a declaration has no variable")
		return false
	}
	if v.declared[x] {
		v.errorf(pos, "variable %s is declared twice", x.Name)
		return false
	}
	v.declared[x] = true
	if !x.T.Valid() {
		v.errorf(pos, "variable %s has no valid type (%v)", x.Name, x.T)
	}
	v.name(pos, x.Name, "variable "+x.Name)
	return true
}

func (v *verifier) decl(s *ir.Decl) {
	t, ok := v.expr(s.Init, s.Pos)
	if !v.declareVar(s.Var, s.Pos) {
		return
	}
	v.scopes[len(v.scopes)-1][s.Var] = true
	if ok && t != s.Var.T {
		v.errorf(s.Pos, "variable %s of type %v is initialised with a %v value", s.Var.Name, s.Var.T, t)
	}
}

func (v *verifier) assign(s *ir.Assign) {
	t, ok := v.expr(s.Value, s.Pos)
	vt, okv := v.use(s.Var, s.Pos)
	switch {
	case !okv:
	case v.loopVars[s.Var]:
		v.errorf(s.Pos, "assignment to %s, the index of a loop", s.Var.Name)
	case ok && t != vt:
		v.errorf(s.Pos, "assignment of a %v value to %s of type %v", t, s.Var.Name, vt)
	}
}

// result checks the variable that receives the result of an atomic, a
// shuffle or a ballot.
func (v *verifier) result(x *ir.Var, want ir.Type, pos ir.Pos, what string) {
	if x == nil {
		return
	}
	t, ok := v.use(x, pos)
	switch {
	case !ok:
	case v.loopVars[x]:
		v.errorf(pos, "%s result goes to %s, the index of a loop", what, x.Name)
	case want.Valid() && t != want:
		v.errorf(pos, "%s result variable %s has type %v; it must be %v", what, x.Name, t, want)
	}
}

// index checks an array index: uint32.
func (v *verifier) index(e ir.Expr, a *ir.Array, pos ir.Pos) {
	if t, ok := v.expr(e, pos); ok && t != ir.Uint32 {
		v.errorf(pos, "index into %s has type %v; indices are uint32", a.Name, t)
	}
}

// writable checks that a may be written by a store or an atomic.
func (v *verifier) writable(a *ir.Array, pos ir.Pos, what string) bool {
	if !v.knownArray(a, pos) {
		return false
	}
	v.sharedUse(a, pos)
	if a.Space == ir.Constant {
		v.errorf(pos, "%s to constant table %s: constant tables are read-only", what, a.Name)
		return false
	}
	if a.Access == ir.Input {
		v.errorf(pos, "%s to array %s, an input of the kernel: inputs are only read", what, a.Name)
	}
	return true
}

func (v *verifier) store(s *ir.Store) {
	v.atLevel(s.Pos, ir.ThreadLevel, "a store")
	if !v.writable(s.Array, s.Pos, "store") {
		v.expr(s.Index, s.Pos)
		v.expr(s.Value, s.Pos)
		return
	}
	v.index(s.Index, s.Array, s.Pos)
	if t, ok := v.expr(s.Value, s.Pos); ok && t != s.Array.Elem {
		v.errorf(s.Pos, "store of a %v value into %s, an array of %v", t, s.Array.Name, s.Array.Elem)
	}
	if s.Async {
		v.asyncCopy(s)
	}
}

// asyncCopy checks what an asynchronous copy adds to a store: it copies
// an element of 4 or 8 bytes from a global array to a shared one.
func (v *verifier) asyncCopy(s *ir.Store) {
	src := s.AsyncSource()
	switch {
	case src == nil:
		v.errorf(s.Pos, "asynchronous copy into %s of a %T, not of an element of a global array", s.Array.Name, s.Value)
	case s.Array.Space != ir.Shared:
		v.errorf(s.Pos, "asynchronous copy into %s, a %v array: it copies into shared memory", s.Array.Name, s.Array.Space)
	case src.Array.Space != ir.Global:
		v.errorf(s.Pos, "asynchronous copy from %s, a %v array: it copies from global memory", src.Array.Name,
			src.Array.Space)
	case s.SameValue:
		v.errorf(s.Pos, "asynchronous copy into %s marked SameValue: many threads may not copy to one element",
			s.Array.Name)
	case !slices.Contains(ir.AsyncCopySizes, s.Array.Elem.Size()):
		v.errorf(s.Pos, "asynchronous copy of %v elements into %s: it copies elements of %v bytes", s.Array.Elem,
			s.Array.Name, ir.AsyncCopySizes)
	}
}

// cond checks the condition of an if or a while.
func (v *verifier) cond(e ir.Expr, pos ir.Pos, what string) {
	if t, ok := v.expr(e, pos); ok && t != ir.Bool {
		v.errorf(pos, "%s condition has type %v; it must be bool", what, t)
	}
}

func (v *verifier) forLoop(s *ir.For) {
	t, ok := v.expr(s.Count, s.Pos)
	if !v.declareVar(s.Var, s.Pos) {
		return
	}
	switch {
	case !s.Var.T.IsInteger():
		v.errorf(s.Pos, "loop index %s has type %v; it must be an integer", s.Var.Name, s.Var.T)
	case ok && t != s.Var.T:
		v.errorf(s.Pos, "loop count has type %v, unlike its index %s of type %v", t, s.Var.Name, s.Var.T)
	}
	v.loopVars[s.Var] = true
	v.control(s, s.Count, func() { v.scoped(s.Body, s.Var) })
}

func (v *verifier) forAll(s *ir.ForAll) {
	if s.Kind < ir.GridThreads || s.Kind > ir.WarpLanes {
		v.errorf(s.Pos, "unknown ForAll kind %d", s.Kind)
		return
	}
	v.atLevel(s.Pos, s.Kind.Outer(), "a "+s.Kind.String()+" ForAll")
	if s.Unroll < 0 || s.Unroll > ir.MaxUnroll {
		v.errorf(s.Pos, "%v ForAll unrolled by %d; it must be 0 (the compiler's choice) to %d", s.Kind, s.Unroll, ir.MaxUnroll)
	}
	t, ok := v.expr(s.Count, s.Pos)
	if ok && t != ir.Uint32 {
		v.errorf(s.Pos, "%v count has type %v; it must be uint32", s.Kind, t)
		ok = false
	}
	count, constant := ir.Value{}, false
	if ok {
		count, constant = ConstValue(s.Count)
	}
	if !v.declareVar(s.Var, s.Pos) {
		return
	}
	if s.Var.T != ir.Uint32 {
		v.errorf(s.Pos, "%v index %s has type %v; it must be uint32", s.Kind, s.Var.Name, s.Var.T)
	}
	v.loopVars[s.Var] = true
	saved, level, blockBody, warpBody := v.warp, v.level, v.blockBody, v.warpBody
	if s.Kind.Inner() == ir.ThreadLevel {
		v.warp = warpState{forAll: s, complete: constant && v.fillsWarps(s.Kind, count.Bits)}
	}
	switch s.Kind {
	case ir.GridBlocks:
		v.blockBody = s
	case ir.BlockWarps:
		v.warpBody = s
	}
	v.level = s.Kind.Inner()
	v.scoped(s.Body, s.Var)
	v.warp, v.level, v.blockBody, v.warpBody = saved, level, blockBody, warpBody
}

// sharedUse checks a load, store or atomic on a whose contents belong to
// one body of the kernel: a shared array to a block body (the body of a
// GridBlocks ForAll), a PerWarp one to a warp body too (the body of a
// BlockWarps ForAll), a local array to a thread body (the body of a
// ForAll at Thread level). Each must be used inside such a body, the same
// one at every use, the one where it is first used. Its contents exist
// only while that body runs for one virtual block, warp or thread: in any
// other body, or in a later iteration, the bytes hold what some block,
// warp or thread left there, which depends on how the launch is spread.
// Global arrays and constant tables belong to the whole launch.
func (v *verifier) sharedUse(a *ir.Array, pos ir.Pos) {
	switch a.Space {
	case ir.Global, ir.Constant:
	case ir.Shared:
		v.bodyUse(a, pos, ownedBy{"shared array", "block body", ir.GridBlocks}, v.blockBody)
		if a.PerWarp {
			v.bodyUse(a, pos, ownedBy{"warp-private shared array", "warp body", ir.BlockWarps}, v.warpBody)
		}
	case ir.Local:
		if a.Held {
			v.heldUse(a, pos)
			return
		}
		var body *ir.ForAll
		if v.level == ir.ThreadLevel {
			body = v.warp.forAll
		}
		v.bodyUse(a, pos, ownedBy{"local array", "thread body", 0}, body)
	default:
		v.errorf(pos, "array %s is in unknown memory space %d", a.Name, a.Space)
	}
}

// heldUse checks a use of a Held local array: in thread code (each
// thread reaches its own elements, which code of a block or a warp, run
// alike by all of them, has no one of), inside the block body that owns it.
func (v *verifier) heldUse(a *ir.Array, pos ir.Pos) {
	if v.level != ir.ThreadLevel {
		v.errorf(pos, "held array %s (allocated at %v) is used in %v-level code: each thread holds its own "+
			"elements, so it is used in the thread body of a ForAll inside its block body", a.Name, a.Pos, v.level)
		return
	}
	v.bodyUse(a, pos, ownedBy{"held array", "block body", ir.GridBlocks}, v.blockBody)
}

// ownedBy describes the body whose contents an array is, for reports.
type ownedBy struct {
	array, body string
	kind        ir.ForAllKind // that of the ForAll whose body it is; 0: any ForAll at Thread level
}

// bodyUse checks a use of a, owned by a body as o says, in body (nil:
// outside any such body).
func (v *verifier) bodyUse(a *ir.Array, pos ir.Pos, o ownedBy, body *ir.ForAll) {
	forAll := "a " + o.kind.String() + " ForAll"
	if o.kind == 0 {
		forAll = "a ForAll at Thread level"
	}
	key := homeKey{a, o.body}
	home, seen := v.homes[key]
	switch {
	case body == nil:
		v.errorf(pos, "%s %s (allocated at %v) is used outside a %s (the body of %s): its contents belong to "+
			"one and exist only while that body runs", o.array, a.Name, a.Pos, o.body, forAll)
	case !seen:
		v.homes[key] = body
	case home != body:
		v.errorf(pos, "%s %s (allocated at %v) is used in the %s of the %v ForAll at %v, but it belongs to the "+
			"one at %v, where it is first used: its contents exist only within that body, so here it would "+
			"hold what some other one left there", o.array, a.Name, a.Pos, o.body, body.Kind, body.Pos, home.Pos)
	}
}

// homeKey names the body of one kind that owns an array.
type homeKey struct {
	array *ir.Array
	body  string
}

// fillsWarps reports whether a ForAll of this kind and constant count runs
// every lane of the warps it runs, in every round.
func (v *verifier) fillsWarps(k ir.ForAllKind, count uint64) bool {
	switch k {
	case ir.WarpLanes:
		// Lane l runs indices l, l + 32, ...: every lane runs every round.
		return count > 0 && count%ir.WarpSize == 0
	case ir.BlockThreads:
		return count == uint64(v.k.Threads) && v.k.Threads%ir.WarpSize == 0
	}
	return false
}

// atLevel reports what when it is not in code of the given level.
func (v *verifier) atLevel(pos ir.Pos, want ir.Level, what string) {
	if v.level != want {
		v.errorf(pos, "%s belongs in %v-level code, but this is %v-level code", what, want, v.level)
	}
}

func (v *verifier) sync(s *ir.Sync) {
	switch s.Level {
	case ir.BlockLevel, ir.WarpLevel:
		v.atLevel(s.Pos, s.Level, "a "+s.Level.String()+"-level barrier")
	default:
		v.errorf(s.Pos, "barrier of level %v; barriers are Block or Warp level", s.Level)
	}
}

func (v *verifier) shuffle(s *ir.Shuffle) {
	v.atLevel(s.Pos, ir.ThreadLevel, "a shuffle")
	if s.Mode < ir.ShuffleIdx || s.Mode > ir.ShuffleXor {
		v.errorf(s.Pos, "unknown shuffle mode %d", s.Mode)
	}
	t, ok := v.expr(s.Value, s.Pos)
	if ok && !t.IsNumeric() {
		v.errorf(s.Pos, "shuffle of a %v value; shuffles move numbers", t)
	}
	if lt, ok := v.expr(s.Lane, s.Pos); ok && lt != ir.Uint32 {
		v.errorf(s.Pos, "shuffle lane has type %v; it must be uint32", lt)
	}
	if s.Result == nil {
		v.errorf(s.Pos, "shuffle has no result variable")
	} else if ok {
		v.result(s.Result, t, s.Pos, "shuffle")
	}
	v.wholeWarp(s.Pos, "shuffle")
}

func (v *verifier) ballot(s *ir.Ballot) {
	v.atLevel(s.Pos, ir.ThreadLevel, "a ballot")
	if t, ok := v.expr(s.Pred, s.Pos); ok && t != ir.Bool {
		v.errorf(s.Pos, "ballot predicate has type %v; it must be bool", t)
	}
	if s.Result == nil {
		v.errorf(s.Pos, "ballot has no result variable")
	} else {
		v.result(s.Result, ir.Uint32, s.Pos, "ballot")
	}
	v.wholeWarp(s.Pos, "ballot")
}

func (v *verifier) matchAny(s *ir.MatchAny) {
	v.atLevel(s.Pos, ir.ThreadLevel, "a match")
	if t, ok := v.expr(s.Value, s.Pos); ok && !ir.Matchable(t) {
		v.errorf(s.Pos, "match of a %v value; MatchAny compares 32 and 64-bit integers and floats", t)
	}
	if s.Result == nil {
		v.errorf(s.Pos, "match has no result variable")
	} else {
		v.result(s.Result, ir.Uint32, s.Pos, "match")
	}
	v.wholeWarp(s.Pos, "match")
}

// wholeWarp checks that every lane of the warp reaches a shuffle, ballot or
// match.
func (v *verifier) wholeWarp(pos ir.Pos, what string) {
	w := v.warp
	switch {
	case v.level != ir.ThreadLevel:
	case !w.complete:
		v.errorf(pos, "a %s needs all %d lanes of a warp: it must be in a WarpLanes ForAll of a count that is a "+
			"multiple of %d or a BlockThreads ForAll of count %d (the block size)", what, ir.WarpSize, ir.WarpSize,
			v.k.Threads)
	case w.branched:
		v.errorf(pos, "a %s needs all %d lanes of a warp, but here it is under an if or a loop whose "+
			"condition may differ between lanes", what, ir.WarpSize)
	case v.divergent > 0:
		v.errorf(pos, "a %s needs all %d lanes of a warp, but here it is under a thread-dependent condition "+
			"outside its ForAll", what, ir.WarpSize)
	}
}
