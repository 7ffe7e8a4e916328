package eval

import (
	"math/bits"

	"github.com/obsidian-go/obsidian/ir"
)

// stmts compiles a statement list into one closure that stops early when
// the launch stops.
func (c *compiler) stmts(list []ir.Stmt, sc *scope) stmtFn {
	var fns []stmtFn
	for _, s := range list {
		if f := c.stmt(s, sc); f != nil {
			fns = append(fns, f)
		}
	}
	switch len(fns) {
	case 0:
		return func(*machine) {}
	case 1:
		return fns[0]
	}
	return func(m *machine) {
		for _, f := range fns {
			if f(m); m.stop {
				return
			}
		}
	}
}

// stmt compiles one statement, returning nil after reporting a problem.
func (c *compiler) stmt(s ir.Stmt, outer *scope) stmtFn {
	sc := *outer
	switch s := s.(type) {
	case *ir.Decl:
		if s != nil {
			sc.pos = s.Pos
			return c.assign(s.Var, s.Init, &sc)
		}
	case *ir.Assign:
		if s != nil {
			sc.pos = s.Pos
			return c.assign(s.Var, s.Value, &sc)
		}
	case *ir.Store:
		if s != nil {
			sc.pos = s.Pos
			return c.store(s, &sc)
		}
	case *ir.If:
		if s != nil {
			sc.pos = s.Pos
			return c.ifStmt(s, &sc)
		}
	case *ir.For:
		if s != nil {
			sc.pos = s.Pos
			return c.forStmt(s, &sc)
		}
	case *ir.While:
		if s != nil {
			sc.pos = s.Pos
			return c.while(s, &sc)
		}
	case *ir.ForAll:
		if s != nil {
			sc.pos = s.Pos
			return c.forAll(s, &sc)
		}
	case *ir.Sync:
		if s != nil {
			sc.pos = s.Pos
			return c.sync(s, &sc)
		}
	case *ir.Atomic:
		if s != nil {
			sc.pos = s.Pos
			return c.atomic(s, &sc)
		}
	case *ir.Shuffle:
		if s != nil {
			sc.pos = s.Pos
			return c.shuffle(s, &sc)
		}
	case *ir.Ballot:
		if s != nil {
			sc.pos = s.Pos
			return c.ballot(s, &sc)
		}
	case *ir.Fence:
		if s != nil {
			return func(*machine) {} // every access is sequentially consistent here
		}
	case *ir.Sleep:
		if s != nil {
			return func(*machine) {} // waiting threads are scheduled in turn here
		}
	case *ir.MatchAny:
		if s != nil {
			sc.pos = s.Pos
			return c.matchAny(s, &sc)
		}
	}
	c.errorf(sc.pos, "missing or unknown statement %T", s)
	return nil
}

// uniform reports whether code at sc runs once for a block or warp rather
// than per thread.
func (sc *scope) uniform() bool { return sc.level != ir.ThreadLevel }

// setter returns a function that writes per-lane values to the variable
// in slot for the lanes of mask.
func setter(slot int, lane bool) func(m *machine, mask uint32, v *vec) {
	if !lane {
		return func(m *machine, _ uint32, v *vec) {
			m.uniform[slot] = v[0]
			m.uniformDef[slot] = true
		}
	}
	return func(m *machine, mask uint32, v *vec) {
		copyLanes(&m.lanes[slot], v, mask)
		m.laneDef[slot] |= mask
	}
}

func (c *compiler) assign(v *ir.Var, value ir.Expr, sc *scope) stmtFn {
	val, t := c.operand(value, sc)
	if t == ir.NoType {
		return nil
	}
	slot, lane, ok := c.target(v, t, sc)
	if !ok {
		return nil
	}
	set := setter(slot, lane)
	return func(m *machine) {
		if x := val.get(m, m.scratch()); !m.stop {
			set(m, m.mask, x)
		}
		m.release(1)
	}
}

// writable returns the memory of a for a statement that writes it.
func (c *compiler) writable(a *ir.Array, sc *scope) (int, bool) {
	mi, ok := c.memory(a, sc.pos)
	if !ok {
		return 0, false
	}
	if a.Access == ir.Input {
		c.errorf(sc.pos, "write to %v array %s, which is read-only", a.Space, a.Name)
		return 0, false
	}
	c.prog.written[mi] = true
	return mi, true
}

func (c *compiler) store(s *ir.Store, sc *scope) stmtFn {
	mi, okMem := c.writable(s.Array, sc)
	index, ti := c.operand(s.Index, sc)
	okIndex := c.isIndex(ti, sc)
	value, tv := c.operand(s.Value, sc)
	if !okMem || !okIndex || tv == ir.NoType {
		return nil
	}
	if tv != s.Array.Elem {
		c.errorf(sc.pos, "store of a %v value to array %s of %v", tv, s.Array.Name, s.Array.Elem)
		return nil
	}
	pos, same, site := sc.pos, s.SameValue, c.site(sc.pos)
	if s.Async {
		if s.Array.Space != ir.Shared || s.AsyncSource() == nil {
			c.errorf(sc.pos, "asynchronous copy into %s: it copies an element of a global array into a shared one",
				s.Array.Name)
			return nil
		}
		return func(m *machine) {
			iv := index.get(m, m.scratch())
			vv := value.get(m, m.scratch())
			m.copyAsyncLanes(m.mems[mi], ti, iv, vv, pos, site)
			m.release(2)
		}
	}
	return func(m *machine) {
		iv := index.get(m, m.scratch())
		vv := value.get(m, m.scratch())
		m.storeLanes(m.mems[mi], ti, iv, vv, same, pos, site)
		m.release(2)
	}
}

// cond compiles a Bool condition.
func (c *compiler) cond(e ir.Expr, sc *scope) (exprFn, bool) {
	fn, t := c.expr(e, sc)
	if t != ir.NoType && t != ir.Bool {
		c.errorf(sc.pos, "condition of type %v", t)
	}
	return fn, t == ir.Bool
}

// lanesHolding returns the mask of the lanes whose bool in v is true.
func lanesHolding(v *vec) uint32 {
	var holds uint32
	for l := range v {
		holds |= uint32(v[l]&1) << l
	}
	return holds
}

// under returns the scope of the body of a construct controlled by e.
func (c *compiler) under(sc *scope, e ir.Expr) *scope {
	inner := *sc
	if sc.uniform() {
		inner.divergent |= c.exprTaint(e)
	}
	return &inner
}

func (c *compiler) ifStmt(s *ir.If, sc *scope) stmtFn {
	cond, ok := c.cond(s.Cond, sc)
	inner := c.under(sc, s.Cond)
	then, els := c.stmts(s.Then, inner), c.stmts(s.Else, inner)
	if !ok {
		return nil
	}
	if sc.uniform() {
		return func(m *machine) {
			cv := m.scratch()
			cond(m, cv)
			taken := cv[0] != 0
			m.release(1)
			switch {
			case m.stop:
			case taken:
				then(m)
			default:
				els(m)
			}
		}
	}
	pos, warpOps := sc.pos, hasWarpOp(s.Then, s.Else)
	return func(m *machine) {
		cv := m.scratch()
		cond(m, cv)
		holds := lanesHolding(cv)
		m.release(1)
		if m.stop {
			return
		}
		saved := m.mask
		if warpOps && !lanesAgree(m, pos, "an if", saved, holds) {
			return
		}
		if m.mask = saved & holds; m.mask != 0 {
			then(m)
		}
		if m.mask = saved &^ holds; m.mask != 0 && !m.stop {
			els(m)
		}
		m.mask = saved
	}
}

// iterations returns a loop count of type t as an unsigned number; a
// negative count runs no iteration.
func iterations(t ir.Type, x uint64) uint64 {
	if n := signExtend(t, x); t.IsSigned() && n < 0 {
		return 0
	}
	return x
}

func (c *compiler) forStmt(s *ir.For, sc *scope) stmtFn {
	count, tc := c.expr(s.Count, sc)
	if tc != ir.NoType && !tc.IsInteger() {
		c.errorf(sc.pos, "loop count of type %v", tc)
		tc = ir.NoType
	}
	inner := c.under(sc, s.Count)
	if tc == ir.NoType {
		c.stmts(s.Body, inner)
		return nil
	}
	slot, lane, ok := c.target(s.Var, tc, inner)
	body := c.stmts(s.Body, inner)
	if !ok {
		return nil
	}
	pos, set := sc.pos, setter(slot, lane)
	warpOps := !sc.uniform() && hasWarpOp(s.Body)
	return func(m *machine) {
		cv, iv := m.scratch(), m.scratch()
		defer m.release(2)
		if count(m, cv); m.stop {
			return
		}
		saved := m.mask
		for mask := saved; mask != 0; mask &= mask - 1 {
			l := bits.TrailingZeros32(mask)
			cv[l] = iterations(tc, cv[l])
		}
		for i := uint64(0); ; i++ {
			active := uint32(0)
			for mask := saved; mask != 0; mask &= mask - 1 {
				l := bits.TrailingZeros32(mask)
				if i < cv[l] {
					active |= 1 << l
				}
			}
			if warpOps && !lanesAgree(m, pos, "a loop", saved, active) || active == 0 || !m.step(pos) {
				break
			}
			broadcast(iv, i)
			m.mask = active
			set(m, active, iv)
			if body(m); m.stop {
				break
			}
		}
		m.mask = saved
	}
}

func (c *compiler) while(s *ir.While, sc *scope) stmtFn {
	cond, ok := c.cond(s.Cond, sc)
	body := c.stmts(s.Body, c.under(sc, s.Cond))
	if !ok {
		return nil
	}
	pos, warpOps, waiting := sc.pos, !sc.uniform() && hasWarpOp(s.Body), waits(s)
	c.prog.waits = c.prog.waits || waiting
	return func(m *machine) {
		saved := m.mask
		cv := m.scratch()
		defer m.release(1)
		if waiting {
			defer m.endWait()
		}
		for n := 0; ; n++ {
			if cond(m, cv); m.stop {
				break
			}
			if warpOps && !lanesAgree(m, pos, "a loop", m.mask, lanesHolding(cv)) {
				break
			}
			if m.mask &= lanesHolding(cv); m.mask == 0 {
				break
			}
			if n == maxLoopSteps {
				m.report(true, pos, "loop", "loop does not terminate (more than %d iterations)", maxLoopSteps)
				break
			}
			if waiting && n%stepBatch == stepBatch-1 && !m.stillWaiting(pos) {
				break
			}
			if !m.step(pos) {
				break
			}
			if body(m); m.stop {
				break
			}
		}
		m.mask = saved
	}
}

func (c *compiler) sync(s *ir.Sync, sc *scope) stmtFn {
	pos := sc.pos
	divergent := func(m *machine, what string) {
		m.report(false, pos, "divergent", "barrier reached by only some threads of the %s: it is under a "+
			"condition or loop that depends on the thread index", what)
	}
	switch {
	case sc.level == ir.ThreadLevel:
		c.errorf(pos, "barrier in thread-level code")
	case s.Level == ir.BlockLevel && sc.level == ir.WarpLevel:
		c.errorf(pos, "block-level barrier in warp-level code")
	case s.Level == ir.BlockLevel:
		div := sc.divergent != 0
		return func(m *machine) {
			if div {
				divergent(m, "block")
			}
			m.barrier()
		}
	case s.Level == ir.WarpLevel:
		div, inWarp := sc.divergent&laneDependent != 0, sc.inWarp
		return func(m *machine) {
			if div {
				divergent(m, "warp")
			}
			if inWarp {
				m.warpEpoch[m.warpBase/warpSize]++
				return
			}
			for w := range m.warpEpoch {
				m.warpEpoch[w]++
			}
		}
	default:
		c.errorf(pos, "barrier of level %v", s.Level)
	}
	return nil
}
