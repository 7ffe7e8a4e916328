package eval

import (
	"math/bits"

	"github.com/obsidian-go/obsidian/ir"
)

// noExpr stands for an expression that did not compile.
func noExpr(*machine, *vec) {}

func broadcast(out *vec, v uint64) {
	for l := range out {
		out[l] = v
	}
}

// expr compiles e in sc. It returns the closure and e's type, or NoType
// after reporting a problem.
func (c *compiler) expr(e ir.Expr, sc *scope) (exprFn, ir.Type) {
	switch e := e.(type) {
	case *ir.Const:
		if e != nil {
			return c.constant(e.Value, sc)
		}
	case *ir.Var:
		if e != nil {
			return c.variable(e, sc)
		}
	case *ir.Special:
		if e != nil {
			return c.special(e, sc)
		}
	case *ir.Unary:
		if e != nil {
			return c.operation(e.Op.Operation(), e.Op.String(), []ir.Expr{e.X}, sc)
		}
	case *ir.Binary:
		if e != nil {
			return c.operation(e.Op.Operation(), e.Op.String(), []ir.Expr{e.X, e.Y}, sc)
		}
	case *ir.Ternary:
		if e != nil {
			return c.operation(e.Op.Operation(), e.Op.String(), []ir.Expr{e.X, e.Y, e.Z}, sc)
		}
	case *ir.Select:
		if e != nil {
			return c.selection(e, sc)
		}
	case *ir.Convert:
		if e != nil {
			return c.conversion(e, sc)
		}
	case *ir.Load:
		if e != nil {
			return c.load(e, sc)
		}
	case *ir.Len:
		if e != nil {
			return c.length(e, sc)
		}
	case *ir.Invalid:
		if e != nil {
			c.errorf(e.Pos, "%s", e.Msg)
			return noExpr, ir.NoType
		}
	}
	c.errorf(sc.pos, "missing or unknown expression %T", e)
	return noExpr, ir.NoType
}

func (c *compiler) constant(v ir.Value, sc *scope) (exprFn, ir.Type) {
	if !v.T.Valid() {
		c.errorf(sc.pos, "constant of invalid type %v", v.T)
		return noExpr, ir.NoType
	}
	b := v.Bits & widthMask(v.T)
	return func(_ *machine, out *vec) { broadcast(out, b) }, v.T
}

func (c *compiler) variable(v *ir.Var, sc *scope) (exprFn, ir.Type) {
	_, isUniform := c.uniformSlot[v]
	switch {
	case !v.T.Valid():
		c.errorf(sc.pos, "variable %s has invalid type %v", v.Name, v.T)
		return noExpr, ir.NoType
	case c.mode == closedMode || (c.mode == hostMode && !isUniform):
		c.errorf(sc.pos, "variable %s in an expression that may use only constants and parameters", v.Name)
		return noExpr, ir.NoType
	}
	pos := sc.pos
	slot, lane := c.varSlot(v, sc)
	if lane {
		return func(m *machine, out *vec) {
			m.checkDeclared(slot, pos, v)
			*out = m.lanes[slot]
		}, v.T
	}
	return func(m *machine, out *vec) {
		if !m.uniformDef[slot] {
			m.report(true, pos, "undeclared", "variable %s read before it is declared", v.Name)
		}
		broadcast(out, m.uniform[slot])
	}, v.T
}

func (c *compiler) special(e *ir.Special, sc *scope) (exprFn, ir.Type) {
	if c.mode != kernelMode {
		c.errorf(sc.pos, "%v in an expression that may use only constants and parameters", e.Kind)
		return noExpr, ir.NoType
	}
	switch e.Kind {
	case ir.ThreadIdx:
		return func(m *machine, out *vec) {
			for l := range out {
				out[l] = uint64(m.warpBase + l)
			}
		}, ir.Uint32
	case ir.LaneIdx:
		return func(_ *machine, out *vec) {
			for l := range out {
				out[l] = uint64(l)
			}
		}, ir.Uint32
	case ir.WarpIdx:
		return func(m *machine, out *vec) { broadcast(out, uint64(m.warpBase/warpSize)) }, ir.Uint32
	case ir.BlockIdx:
		return func(m *machine, out *vec) { broadcast(out, uint64(m.block)) }, ir.Uint32
	case ir.BlockDim:
		return func(m *machine, out *vec) { broadcast(out, uint64(m.threads)) }, ir.Uint32
	case ir.GridDim:
		return func(m *machine, out *vec) { broadcast(out, uint64(m.blocks)) }, ir.Uint32
	}
	c.errorf(sc.pos, "unknown special index %d", e.Kind)
	return noExpr, ir.NoType
}

// operand is a compiled expression whose value is read, not modified: get
// returns the vec holding it, tmp (a vec of the caller's, which get fills)
// or, when inPlace, a vec of its own that it does not compute (a
// constant's, made once, or a thread-level variable's lanes), for which tmp
// may be nil. The vec stays valid until the caller's expression ends. The
// caller only reads it: a constant's vec is shared by every launch of the
// program.
type operand struct {
	get     func(m *machine, tmp *vec) *vec
	inPlace bool
}

// operand compiles e as an operand.
func (c *compiler) operand(e ir.Expr, sc *scope) (operand, ir.Type) {
	fn, t := c.expr(e, sc)
	if t == ir.NoType {
		return operand{}, t
	}
	switch e := e.(type) {
	case *ir.Const:
		v := new(vec)
		broadcast(v, e.Value.Bits&widthMask(t))
		return operand{get: func(*machine, *vec) *vec { return v }, inPlace: true}, t
	case *ir.Var:
		if slot, lane := c.laneSlot[e]; lane {
			pos := sc.pos
			return operand{get: func(m *machine, _ *vec) *vec {
				m.checkDeclared(slot, pos, e)
				return &m.lanes[slot]
			}, inPlace: true}, t
		}
	}
	return operand{get: func(m *machine, tmp *vec) *vec {
		fn(m, tmp)
		return tmp
	}}, t
}

// checkDeclared reports a read of the thread-level variable v, in slot,
// on lanes where it has not been declared.
func (m *machine) checkDeclared(slot int, pos ir.Pos, v *ir.Var) {
	if m.laneDef[slot]&m.mask != m.mask {
		m.report(true, pos, "undeclared", "variable %s read before it is declared", v.Name)
	}
}

// copyLanes copies the lanes of mask from src to dst.
func copyLanes(dst, src *vec, mask uint32) {
	if mask == fullMask {
		*dst = *src
		return
	}
	for mk := mask; mk != 0; mk &= mk - 1 {
		l := bits.TrailingZeros32(mk)
		dst[l] = src[l]
	}
}

// operation compiles the operation o of the operator table on args.
func (c *compiler) operation(o *ir.Operation, name string, args []ir.Expr, sc *scope) (exprFn, ir.Type) {
	ops := make([]operand, len(args))
	ts := make([]ir.Type, len(args))
	for i, a := range args {
		ops[i], ts[i] = c.operand(a, sc)
		if ts[i] == ir.NoType {
			return noExpr, ir.NoType
		}
	}
	if o == nil {
		c.errorf(sc.pos, "unknown operator %s", name)
		return noExpr, ir.NoType
	}
	rt, err := o.Check(ts...)
	if err != nil {
		c.errorf(sc.pos, "%v", err)
		return noExpr, ir.NoType
	}
	t := ts[0]
	if sp, _ := o.CUDA(t); sp.Lazy {
		return shortCircuit(ops[0], ops[1], o.Func), rt
	}
	fn, ok := o.Func(t)
	if !ok {
		c.errorf(sc.pos, "operator %s not defined on %v", o.Name, t)
		return noExpr, ir.NoType
	}
	if o.FaultsFor(t) != ir.NeverFaults && !safeOperand(o, t, args) {
		return faulting(o, t, fn, ops[0], ops[1], sc.pos), rt
	}
	return lanes(vectorOp(o, t, fn), ops), rt
}

// safeOperand reports whether operation o, which may fault on type t, never
// does on args: its second operand is a constant that makes it safe.
func safeOperand(o *ir.Operation, t ir.Type, args []ir.Expr) bool {
	if len(args) < 2 {
		return false
	}
	y, ok := args[1].(*ir.Const)
	return ok && y != nil && o.SafeWith(t, ir.Value{T: t, Bits: y.Value.Bits & widthMask(t)})
}

// lanes computes op on the operands, for every lane: their values are
// meaningful on the active lanes only, and op cannot fault on any.
func lanes(op vecFn, ops []operand) exprFn {
	switch len(ops) {
	case 1:
		x := ops[0]
		return func(m *machine, out *vec) { op(out, x.get(m, out), nil, nil) }
	case 2:
		x, y := ops[0], ops[1]
		if y.inPlace {
			return func(m *machine, out *vec) {
				xv := x.get(m, out)
				op(out, xv, y.get(m, nil), nil)
			}
		}
		return func(m *machine, out *vec) {
			xv := x.get(m, out)
			op(out, xv, y.get(m, m.scratch()), nil)
			m.release(1)
		}
	}
	x, y, z := ops[0], ops[1], ops[2]
	return func(m *machine, out *vec) {
		xv := x.get(m, out)
		yv := y.get(m, m.scratch())
		op(out, xv, yv, z.get(m, m.scratch()))
		m.release(2)
	}
}

// faulting computes operation o of type t, per-lane function fn, on x and y
// for the active lanes, lane after lane, reporting the first fault.
func faulting(o *ir.Operation, t ir.Type, fn ir.Func, x, y operand, pos ir.Pos) exprFn {
	return func(m *machine, out *vec) {
		xv := x.get(m, out)
		yv := y.get(m, m.scratch())
		for mask := m.mask; mask != 0; mask &= mask - 1 {
			l := bits.TrailingZeros32(mask)
			r, f := fn(xv[l], yv[l], 0)
			if f != ir.NoFault {
				m.report(true, pos, "fault", "%v: %s %v %s", f, ir.Value{T: t, Bits: xv[l]}, o.Name, ir.Value{T: t, Bits: yv[l]})
				break
			}
			out[l] = r
		}
		m.release(1)
	}
}

// shortCircuit computes a lazy operation of bools (C's && and ||),
// evaluating y only on the lanes where x does not decide: those where the
// result with y false and with y true differ.
func shortCircuit(x, y operand, funcOf func(ir.Type) (ir.Func, bool)) exprFn {
	fn, _ := funcOf(ir.Bool)
	var result [2][2]uint64 // by x and y
	for a := range result {
		for b := range result[a] {
			result[a][b] = first(fn(uint64(a), uint64(b), 0))
		}
	}
	// undecidedWhen[a] has every lane where x == a leaves the result to y.
	var undecidedWhen [2]uint32
	for a := range result {
		if result[a][0] != result[a][1] {
			undecidedWhen[a] = fullMask
		}
	}
	return func(m *machine, out *vec) {
		xv := x.get(m, out)
		holds := lanesHolding(xv)
		undecided := undecidedWhen[0]&^holds | undecidedWhen[1]&holds
		for l := range out {
			out[l] = result[xv[l]&1][0]
		}
		saved := m.mask
		if m.mask = saved & undecided; m.mask != 0 {
			yv := y.get(m, m.scratch())
			for mk := m.mask; mk != 0; mk &= mk - 1 {
				l := bits.TrailingZeros32(mk)
				out[l] = result[holds>>l&1][yv[l]&1]
			}
			m.release(1)
		}
		m.mask = saved
	}
}

func (c *compiler) selection(e *ir.Select, sc *scope) (exprFn, ir.Type) {
	cond, tc := c.operand(e.Cond, sc)
	th, tt := c.operand(e.Then, sc)
	el, te := c.operand(e.Else, sc)
	switch {
	case tc == ir.NoType || tt == ir.NoType || te == ir.NoType:
		return noExpr, ir.NoType
	case tc != ir.Bool || tt != te:
		c.errorf(sc.pos, "select with condition of type %v and values of types %v and %v", tc, tt, te)
		return noExpr, ir.NoType
	}
	return func(m *machine, out *vec) {
		tmp := m.scratch()
		holds := lanesHolding(cond.get(m, tmp))
		saved := m.mask
		if m.mask = saved & holds; m.mask != 0 {
			if tv := th.get(m, out); tv != out {
				copyLanes(out, tv, m.mask)
			}
		}
		if m.mask = saved &^ holds; m.mask != 0 {
			copyLanes(out, el.get(m, tmp), m.mask)
		}
		m.mask = saved
		m.release(1)
	}, tt
}

func (c *compiler) conversion(e *ir.Convert, sc *scope) (exprFn, ir.Type) {
	x, t := c.expr(e.X, sc)
	if t == ir.NoType {
		return noExpr, ir.NoType
	}
	fn, ok := ir.Conversion(t, e.To)
	if !ok {
		c.errorf(sc.pos, "conversion from %v to %v", t, e.To)
		return noExpr, ir.NoType
	}
	return func(m *machine, out *vec) {
		x(m, out)
		for l := range out {
			out[l] = fn(out[l])
		}
	}, e.To
}

// indexExpr compiles the index of an access to an array.
func (c *compiler) indexExpr(e ir.Expr, sc *scope) (exprFn, ir.Type, bool) {
	fn, t := c.expr(e, sc)
	if !c.isIndex(t, sc) {
		return noExpr, ir.NoType, false
	}
	return fn, t, true
}

// isIndex reports whether an array index of type t is valid, reporting
// one of another type than an integer (NoType was reported already).
func (c *compiler) isIndex(t ir.Type, sc *scope) bool {
	if t != ir.NoType && !t.IsInteger() {
		c.errorf(sc.pos, "array index of type %v", t)
	}
	return t.IsInteger()
}

func (c *compiler) load(e *ir.Load, sc *scope) (exprFn, ir.Type) {
	pos := e.Pos
	if pos == (ir.Pos{}) {
		pos = sc.pos
	}
	inner := *sc
	inner.pos = pos
	mi, okMem := c.memory(e.Array, pos)
	index, ti, okIndex := c.indexExpr(e.Index, &inner)
	if !okMem || !okIndex {
		return noExpr, ir.NoType
	}
	site := c.site(pos)
	isBool := e.Array.Elem == ir.Bool // a bool byte other than 0 reads as true
	// Block- and warp-level code runs once, in lane 0, for all the threads
	// of its block or warp: its read of shared memory is every one of
	// theirs. It is recorded as by the last of them too, so that a write by
	// any thread in the same barrier interval races with one of the two.
	everyThread := sc.uniform() && e.Array.Space == ir.Shared
	warpLevel := sc.level == ir.WarpLevel
	return func(m *machine, out *vec) {
		if everyThread {
			m.readAsLastThread(m.mems[mi], ti, index, warpLevel, pos, site)
		}
		index(m, out)
		m.loadLanes(m.mems[mi], ti, out, pos, site)
		if isBool {
			for mask := m.mask; mask != 0; mask &= mask - 1 {
				l := bits.TrailingZeros32(mask)
				out[l] = boolBits(out[l] != 0)
			}
		}
	}, e.Array.Elem
}

// readAsLastThread records uniform code's read of shared memory mem at
// index as by the last thread of the current warp (warpLevel) or block,
// when that is not lane 0's thread, which makes the read.
func (m *machine) readAsLastThread(mem *memory, t ir.Type, index exprFn, warpLevel bool, pos ir.Pos, site int32) {
	last := m.threads - 1
	if warpLevel {
		last = min(m.warpBase+warpSize, m.threads) - 1
	}
	if last == m.warpBase {
		return
	}
	v := m.scratch()
	index(m, v)
	base := m.warpBase
	m.warpBase = last
	m.loadLanes(mem, t, v, pos, site)
	m.warpBase = base
	m.release(1)
}

func (c *compiler) length(e *ir.Len, sc *scope) (exprFn, ir.Type) {
	a := e.Array
	switch {
	case a == nil:
		c.errorf(sc.pos, "length of a nil array")
	case c.mode == closedMode:
		c.errorf(sc.pos, "length of array %s in an expression that may use only constants", a.Name)
	case a.FixedLen() && c.mode == kernelMode:
		size := uint64(uint32(a.Size))
		return func(_ *machine, out *vec) { broadcast(out, size) }, ir.Uint32
	default:
		mi, ok := c.memOf[a]
		if !ok || a.Space != ir.Global {
			c.errorf(sc.pos, "length of array %s, which is not a parameter of the kernel", a.Name)
			break
		}
		return func(m *machine, out *vec) { broadcast(out, uint64(m.mems[mi].n)) }, ir.Uint32
	}
	return noExpr, ir.NoType
}
