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
			if m.laneDef[slot]&m.mask != m.mask {
				m.report(true, pos, "undeclared", "variable %s read before it is declared", v.Name)
			}
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

// operation compiles the operation o of the operator table on args.
func (c *compiler) operation(o *ir.Operation, name string, args []ir.Expr, sc *scope) (exprFn, ir.Type) {
	fns := make([]exprFn, len(args))
	ts := make([]ir.Type, len(args))
	for i, a := range args {
		fns[i], ts[i] = c.expr(a, sc)
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
		return shortCircuit(fns[0], fns[1], o.Func), rt
	}
	fn, ok := o.Func(t)
	if !ok {
		c.errorf(sc.pos, "operator %s not defined on %v", o.Name, t)
		return noExpr, ir.NoType
	}
	faults := o.FaultsFor(t) != ir.NeverFaults
	pos := sc.pos
	// apply computes lane l, reporting a fault on an active lane.
	apply := func(m *machine, out *vec, l int, y, z uint64) bool {
		r, f := fn(out[l], y, z)
		if f != ir.NoFault {
			m.report(true, pos, "fault", "%v: %s %v %s", f, ir.Value{T: t, Bits: out[l]}, o.Name, ir.Value{T: t, Bits: y})
			return false
		}
		out[l] = r
		return true
	}
	switch len(fns) {
	case 1:
		x := fns[0]
		return func(m *machine, out *vec) {
			x(m, out)
			for l := range out {
				out[l], _ = fn(out[l], 0, 0)
			}
		}, rt
	case 2:
		x, y := fns[0], fns[1]
		if faults {
			return func(m *machine, out *vec) {
				yv := m.scratch()
				x(m, out)
				y(m, yv)
				for mask := m.mask; mask != 0; mask &= mask - 1 {
					if l := bits.TrailingZeros32(mask); !apply(m, out, l, yv[l], 0) {
						break
					}
				}
				m.release(1)
			}, rt
		}
		return func(m *machine, out *vec) {
			yv := m.scratch()
			x(m, out)
			y(m, yv)
			for l := range out {
				out[l], _ = fn(out[l], yv[l], 0)
			}
			m.release(1)
		}, rt
	}
	x, y, z := fns[0], fns[1], fns[2]
	return func(m *machine, out *vec) {
		yv, zv := m.scratch(), m.scratch()
		x(m, out)
		y(m, yv)
		z(m, zv)
		for l := range out {
			out[l], _ = fn(out[l], yv[l], zv[l])
		}
		m.release(2)
	}, rt
}

// shortCircuit computes a lazy operation of bools (C's && and ||),
// evaluating y only on the lanes where x does not decide: those where the
// result with y false and with y true differ.
func shortCircuit(x, y exprFn, funcOf func(ir.Type) (ir.Func, bool)) exprFn {
	fn, _ := funcOf(ir.Bool)
	return func(m *machine, out *vec) {
		x(m, out)
		var undecided uint32
		for l := range out {
			if r0, _ := fn(out[l], 0, 0); r0 != first(fn(out[l], 1, 0)) {
				undecided |= 1 << l
			}
		}
		saved := m.mask
		if m.mask = saved & undecided; m.mask != 0 {
			yv := m.scratch()
			y(m, yv)
			for l := range out {
				if undecided&(1<<l) != 0 {
					out[l], _ = fn(out[l], yv[l], 0)
				}
			}
			m.release(1)
		}
		m.mask = saved
	}
}

func (c *compiler) selection(e *ir.Select, sc *scope) (exprFn, ir.Type) {
	cond, tc := c.expr(e.Cond, sc)
	th, tt := c.expr(e.Then, sc)
	el, te := c.expr(e.Else, sc)
	switch {
	case tc == ir.NoType || tt == ir.NoType || te == ir.NoType:
		return noExpr, ir.NoType
	case tc != ir.Bool || tt != te:
		c.errorf(sc.pos, "select with condition of type %v and values of types %v and %v", tc, tt, te)
		return noExpr, ir.NoType
	}
	return func(m *machine, out *vec) {
		cv, ev := m.scratch(), m.scratch()
		cond(m, cv)
		var holds uint32
		for l := range cv {
			holds |= uint32(cv[l]&1) << l
		}
		saved := m.mask
		if m.mask = saved & holds; m.mask != 0 {
			th(m, out)
		}
		if m.mask = saved &^ holds; m.mask != 0 {
			el(m, ev)
			for l := range out {
				if holds&(1<<l) == 0 {
					out[l] = ev[l]
				}
			}
		}
		m.mask = saved
		m.release(2)
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
	if t != ir.NoType && !t.IsInteger() {
		c.errorf(sc.pos, "array index of type %v", t)
		return noExpr, ir.NoType, false
	}
	return fn, t, t != ir.NoType
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
	return func(m *machine, out *vec) {
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
