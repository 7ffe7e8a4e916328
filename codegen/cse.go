package codegen

import "github.com/obsidian-go/obsidian/ir"

// Common subexpressions become locals. A non-trivial expression that a
// statement of a statement list computes, and that occurs again,
// structurally equal, later in that statement, in a later statement of the
// list or in the statements nested in them, while it still has the same
// value there, is computed once into a local declared just before the
// statement that computes it first; each of those occurrences reads the
// local. The largest repeated expressions are taken first: an occurrence
// that becomes a local is not searched for smaller ones.
//
// An expression keeps its value until a statement that may change it: an
// assignment to a variable it reads (an Assign, the result of an atomic, a
// shuffle or a ballot, a loop's index), a store or an atomic to an array it
// loads from, or, when it loads at all, a barrier. Inside a loop, whatever
// the body may change counts as changed (the body may have run before),
// and a While's condition is taken to be evaluated after its body. An
// expression first computed in a branch of an if is read neither in the
// other branch nor after the if, and what the then branch may change
// counts as changed in the else branch too.
//
// A local is computed where the statement computed its expression anyway,
// or, for an expression the statement evaluates only sometimes (in the arm
// of a select, on the right of && or ||), where computing it early cannot
// fail unless the statement fails anyway: it loads nothing, and its
// divisions are unsigned ones by a divisor the statement always divides
// by. So the kernel computes the same values, and fails where it failed,
// at the same statement.
//
// The locals are named tN_ in the order they are declared (see
// nameSupply). The pass takes time linear in the size of the kernel, up to
// the depth of nested loops and the number of variables and arrays an
// expression reads.

// eliminateCommonSubexpressions rewrites k's body in place.
func eliminateCommonSubexpressions(k *ir.Kernel) {
	c := &cse{
		numbering:  newNumbering(),
		changed:    map[int]changeTime{},
		visible:    map[int]*binding{},
		varChanged: map[*ir.Var]int{},
		arrChanged: map[*ir.Array]int{},
		defs:       map[ir.Expr]*binding{},
		uses:       map[ir.Expr]*binding{},
		definedAt:  map[ir.Stmt][]*binding{},
	}
	unshare(k.Body)
	c.scan(k.Body)
	c.names = newNameSupply(k)
	k.Body = c.rewrite(k.Body)
}

// binding is an expression computed where it is always evaluated, which
// later occurrences may read from a local.
type binding struct {
	def    ir.Expr // the occurrence that computes it, in a header of at
	at     ir.Stmt
	region *region // the statement list holding at
	stamp  int     // the time it is computed (see cse.now)
	v      *ir.Var // the local, once another occurrence reads it
}

// region is a statement list being scanned; its bindings are visible only
// while it is.
type region struct{ active bool }

// changeTime is the result of changedAt for an expression, computed at
// time now.
type changeTime struct{ now, at int }

// changes is what running some statements may change.
type changes struct {
	vars   []*ir.Var
	arrays []*ir.Array
	sync   bool
}

// cse holds the analysis of one kernel.
type cse struct {
	*numbering
	changed    map[int]changeTime // by structural id: see changedAt
	visible    map[int]*binding   // by structural id: the latest binding
	now        int                // the time: advanced by every change
	varChanged map[*ir.Var]int    // when each variable last changed
	arrChanged map[*ir.Array]int  // when each array was last written
	synced     int                // when the last barrier was passed
	defs       map[ir.Expr]*binding
	uses       map[ir.Expr]*binding
	// definedAt lists the bindings each statement computes.
	definedAt map[ir.Stmt][]*binding
	names     *nameSupply
}

// exprFields returns the addresses of the expressions s holds directly,
// in the order of ir.Exprs (nil ones included); for an asynchronous copy,
// which reads its element itself, the addresses of its two indices.
func exprFields(s ir.Stmt) []*ir.Expr {
	switch s := s.(type) {
	case *ir.Decl:
		return []*ir.Expr{&s.Init}
	case *ir.Assign:
		return []*ir.Expr{&s.Value}
	case *ir.Store:
		if src := s.AsyncSource(); src != nil { // the copy reads its element itself: only its index is an expression
			return []*ir.Expr{&s.Index, &src.Index}
		}
		return []*ir.Expr{&s.Index, &s.Value}
	case *ir.If:
		return []*ir.Expr{&s.Cond}
	case *ir.For:
		return []*ir.Expr{&s.Count}
	case *ir.While:
		return []*ir.Expr{&s.Cond}
	case *ir.ForAll:
		return []*ir.Expr{&s.Count}
	case *ir.Atomic:
		return []*ir.Expr{&s.Index, &s.Value, &s.Compare}
	case *ir.Shuffle:
		return []*ir.Expr{&s.Value, &s.Lane}
	case *ir.Ballot:
		return []*ir.Expr{&s.Pred}
	case *ir.MatchAny:
		return []*ir.Expr{&s.Value}
	}
	return nil
}

// unshare rebuilds the expressions of body so that each non-leaf node
// occurs once: a node then names one occurrence.
func unshare(body []ir.Stmt) {
	rebuild := func(ir.Expr) (ir.Expr, bool) { return nil, false }
	ir.WalkStmts(body, func(s ir.Stmt) bool {
		for _, f := range exprFields(s) {
			*f = ir.MapExpr(*f, rebuild)
		}
		return true
	})
}

// scan analyses a statement list: it finds the bindings of its statements
// and the occurrences that read them.
func (c *cse) scan(body []ir.Stmt) {
	r := &region{active: true}
	for _, s := range body {
		c.scanStmt(s, r)
	}
	r.active = false
}

func (c *cse) scanStmt(s ir.Stmt, r *region) {
	switch s := s.(type) {
	case *ir.While:
		c.change(changesOf(s.Body))
		c.read(s.Cond)
		c.scan(s.Body)
		return
	case *ir.For:
		c.compute(s, r)
		c.change(changesOf(s.Body), s.Var)
		c.scan(s.Body)
		return
	case *ir.ForAll:
		c.compute(s, r)
		c.change(changesOf(s.Body), s.Var)
		c.scan(s.Body)
		return
	case *ir.If:
		c.compute(s, r)
		c.scan(s.Then)
		c.scan(s.Else)
		return
	}
	c.compute(s, r)
	c.change(changesOfStmt(s))
}

// compute scans the expressions s holds directly: first where they are
// always evaluated, defining bindings and finding their reuses, then the
// operands evaluated only sometimes (select arms, right of && and ||),
// which define bindings only for what s may compute early (see
// speculate).
func (c *cse) compute(s ir.Stmt, r *region) {
	var sometimes []ir.Expr
	var visit func(e ir.Expr)
	visit = func(e ir.Expr) {
		if e == nil || trivial(e) {
			return
		}
		id := c.number(e)
		if b := c.lookup(id, e); b != nil {
			c.use(e, b)
			return
		}
		always := alwaysChildren(e)
		for _, ch := range always {
			visit(ch)
		}
		sometimes = append(sometimes, ir.Children(e)[len(always):]...)
		c.define(e, id, s, r)
	}
	headers := ir.Exprs(s)
	if b, ok := s.(*ir.Ballot); ok {
		if x, ok := voteOperand(b.Pred); ok { // the vote reads x itself: no local for x != 0
			headers = []ir.Expr{x}
		}
	}
	if st, ok := s.(*ir.Store); ok {
		if src := st.AsyncSource(); src != nil { // the copy reads its element itself: no local for it
			headers = []ir.Expr{st.Index, src.Index}
		}
	}
	for _, e := range headers {
		visit(e)
	}
	if len(sometimes) == 0 {
		return
	}
	divisors := map[int]bool{}
	for _, e := range headers {
		c.addDivisors(e, divisors)
	}
	for _, e := range sometimes {
		c.speculate(e, s, r, divisors)
	}
}

// define makes occurrence e, of structural id id in a header of s, a
// binding.
func (c *cse) define(e ir.Expr, id int, s ir.Stmt, r *region) {
	b := &binding{def: e, at: s, region: r, stamp: c.now}
	c.visible[id] = b
	c.defs[e] = b
	c.definedAt[s] = append(c.definedAt[s], b)
}

// speculate scans e, which s evaluates only sometimes: it finds the
// occurrences of bindings, largest first, and defines bindings for the
// subexpressions that s may compute early, before it runs: those that
// cannot fail, or only by a division of unsigned integers by one of
// divisors, the structural ids of divisors of divisions s always
// evaluates, which would have failed already. It reports whether e is
// such an expression.
func (c *cse) speculate(e ir.Expr, s ir.Stmt, r *region, divisors map[int]bool) bool {
	if e == nil || trivial(e) {
		return true
	}
	id := c.number(e)
	if b := c.lookup(id, e); b != nil {
		c.use(e, b)
		return true
	}
	early := true
	for _, ch := range ir.Children(e) {
		early = c.speculate(ch, s, r, divisors) && early
	}
	if !early || c.mayFail(e, divisors) {
		return false
	}
	c.define(e, id, s, r)
	return true
}

// mayFail reports whether the operation at the root of e may fail (as
// simplify.CanFail finds it), unless it is an unsigned division by one of
// divisors.
func (c *cse) mayFail(e ir.Expr, divisors map[int]bool) bool {
	switch e := e.(type) {
	case *ir.Load, *ir.Invalid:
		return true
	case *ir.Binary:
		o, t := e.Op.Operation(), e.X.Type()
		if o == nil {
			return true
		}
		if k, ok := e.Y.(*ir.Const); ok && o.SafeWith(t, k.Value) {
			return false
		}
		switch o.FaultsFor(t) {
		case ir.NeverFaults:
			return false
		case ir.DivisorFault:
			return t.IsSigned() || !divisors[c.number(e.Y)]
		}
		return true
	}
	return false
}

// addDivisors adds to divisors the structural ids of the divisors of the
// unsigned divisions that e always evaluates.
func (c *cse) addDivisors(e ir.Expr, divisors map[int]bool) {
	if b, ok := e.(*ir.Binary); ok {
		if o := b.Op.Operation(); o != nil && o.FaultsFor(b.X.Type()) == ir.DivisorFault && !b.X.Type().IsSigned() {
			divisors[c.number(b.Y)] = true
		}
	}
	for _, ch := range alwaysChildren(e) {
		c.addDivisors(ch, divisors)
	}
}

// read finds the occurrences of bindings in e, largest first.
func (c *cse) read(e ir.Expr) {
	if e == nil || trivial(e) {
		return
	}
	if b := c.lookup(c.number(e), e); b != nil {
		c.use(e, b)
		return
	}
	for _, ch := range ir.Children(e) {
		c.read(ch)
	}
}

// lookup returns the binding of e's structural id id that is visible and
// still holds its value, or nil.
func (c *cse) lookup(id int, e ir.Expr) *binding {
	b := c.visible[id]
	if b == nil || !b.region.active || c.changedAt(e) > b.stamp {
		return nil
	}
	return b
}

// use records that occurrence e reads binding b's local.
func (c *cse) use(e ir.Expr, b *binding) {
	c.uses[e] = b
	if b.v == nil {
		b.v = &ir.Var{T: b.def.Type()} // named when declared
	}
}

// change records that ch and the variables vs change now.
func (c *cse) change(ch changes, vs ...*ir.Var) {
	c.now++
	for _, v := range append(ch.vars, vs...) {
		c.varChanged[v] = c.now
	}
	for _, a := range ch.arrays {
		c.arrChanged[a] = c.now
	}
	if ch.sync {
		c.synced = c.now
	}
}

// changesOfStmt returns what s itself changes, not counting its nested
// statements.
func changesOfStmt(s ir.Stmt) changes {
	var ch changes
	switch s := s.(type) {
	case *ir.Decl:
		ch.vars = []*ir.Var{s.Var}
	case *ir.Assign:
		ch.vars = []*ir.Var{s.Var}
	case *ir.Store:
		ch.arrays = []*ir.Array{s.Array}
	case *ir.Atomic:
		ch.arrays = []*ir.Array{s.Array}
		if s.Result != nil {
			ch.vars = []*ir.Var{s.Result}
		}
		// After an acquire, the thread may see other threads' writes to
		// any array, as after a barrier.
		ch.sync = s.Order == ir.Acquire
	case *ir.Fence:
		ch.sync = true
	case *ir.Shuffle:
		ch.vars = []*ir.Var{s.Result}
	case *ir.Ballot:
		ch.vars = []*ir.Var{s.Result}
	case *ir.MatchAny:
		ch.vars = []*ir.Var{s.Result}
	case *ir.Sync:
		ch.sync = true
	case *ir.For:
		ch.vars = []*ir.Var{s.Var}
	case *ir.ForAll:
		ch.vars = []*ir.Var{s.Var}
	}
	return ch
}

// changesOf returns what running body may change.
func changesOf(body []ir.Stmt) changes {
	var all changes
	ir.WalkStmts(body, func(s ir.Stmt) bool {
		ch := changesOfStmt(s)
		all.vars = append(all.vars, ch.vars...)
		all.arrays = append(all.arrays, ch.arrays...)
		all.sync = all.sync || ch.sync
		return true
	})
	return all
}

// changedAt returns when something e reads (a variable, an array it loads
// from) last changed, or the last barrier when it loads.
func (c *cse) changedAt(e ir.Expr) int {
	id := c.number(e)
	if m, ok := c.changed[id]; ok && m.now == c.now {
		return m.at
	}
	at := 0
	switch e := e.(type) {
	case *ir.Var:
		at = c.varChanged[e]
	case *ir.Load:
		at = c.arrChanged[e.Array]
		if e.Array.Space != ir.Constant { // a constant table never changes: a barrier changes nothing of it
			at = max(at, c.synced)
		}
	}
	for _, ch := range ir.Children(e) {
		at = max(at, c.changedAt(ch))
	}
	c.changed[id] = changeTime{now: c.now, at: at}
	return at
}

// rewrite returns body with the locals declared and read.
func (c *cse) rewrite(body []ir.Stmt) []ir.Stmt {
	var out []ir.Stmt
	for _, s := range body {
		declared := map[*binding]bool{}
		var declare func(b *binding)
		declare = func(b *binding) {
			if b.v == nil || declared[b] {
				return // read nowhere else, or declared already
			}
			declared[b] = true
			var deps []*binding
			init := withChildren(b.def, c.replaceAll(ir.Children(b.def), &deps))
			for _, d := range deps {
				if d.at == s {
					declare(d) // a smaller expression: no cycle
				}
			}
			b.v.Name = c.names.next()
			out = append(out, &ir.Decl{Var: b.v, Init: init, Pos: s.Position()})
		}
		for _, b := range c.definedAt[s] {
			declare(b)
		}
		for _, f := range exprFields(s) {
			*f = c.replace(*f, nil)
		}
		switch s := s.(type) {
		case *ir.If:
			s.Then, s.Else = c.rewrite(s.Then), c.rewrite(s.Else)
		case *ir.For:
			s.Body = c.rewrite(s.Body)
		case *ir.While:
			s.Body = c.rewrite(s.Body)
		case *ir.ForAll:
			s.Body = c.rewrite(s.Body)
		}
		out = append(out, s)
	}
	return out
}

// replace returns e with each occurrence that reads a local, and each
// that computes one, replaced by the local; it adds the bindings of those
// locals to read, when not nil.
func (c *cse) replace(e ir.Expr, read *[]*binding) ir.Expr {
	if e == nil {
		return nil
	}
	b := c.uses[e]
	if d := c.defs[e]; d != nil && d.v != nil {
		b = d
	}
	if b != nil {
		if read != nil {
			*read = append(*read, b)
		}
		return b.v
	}
	return withChildren(e, c.replaceAll(ir.Children(e), read))
}

func (c *cse) replaceAll(es []ir.Expr, read *[]*binding) []ir.Expr {
	out := make([]ir.Expr, len(es))
	for i, e := range es {
		out[i] = c.replace(e, read)
	}
	return out
}

// nodeKey identifies an expression node up to structural equality: its
// kind, operator or type converted to, the ids of its children, and its
// identity as a leaf (which the type of every other node follows from).
type nodeKey struct {
	kind     uint8
	op       uint8
	t        ir.Type
	children [3]int
	leaf     any
}

// numbering gives expression nodes structural ids: equal ids, equal
// expressions.
type numbering struct {
	id   map[ir.Expr]int // node → structural id
	keys map[nodeKey]int
}

func newNumbering() *numbering {
	return &numbering{id: map[ir.Expr]int{}, keys: map[nodeKey]int{}}
}

// number returns the structural id of e, numbering its subexpressions.
func (h *numbering) number(e ir.Expr) int {
	if e == nil {
		return -1
	}
	if id, ok := h.id[e]; ok {
		return id
	}
	k := nodeKey{children: [3]int{-1, -1, -1}}
	for i, c := range ir.Children(e) {
		k.children[i] = h.number(c)
	}
	switch e := e.(type) {
	case *ir.Const:
		k.kind, k.leaf = 1, e.Value
	case *ir.Var:
		k.kind, k.leaf = 2, e
	case *ir.Special:
		k.kind, k.op = 3, uint8(e.Kind)
	case *ir.Len:
		k.kind, k.leaf = 4, e.Array
	case *ir.Unary:
		k.kind, k.op = 5, uint8(e.Op)
	case *ir.Binary:
		k.kind, k.op = 6, uint8(e.Op)
	case *ir.Ternary:
		k.kind, k.op = 7, uint8(e.Op)
	case *ir.Select:
		k.kind = 8
	case *ir.Convert:
		k.kind, k.t = 9, e.To
	case *ir.Load:
		k.kind, k.leaf = 10, e.Array
	default:
		k.kind, k.leaf = 11, e // unique
	}
	id, ok := h.keys[k]
	if !ok {
		id = len(h.keys)
		h.keys[k] = id
	}
	h.id[e] = id
	return id
}
