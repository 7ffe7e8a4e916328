package eval

import (
	"github.com/obsidian-go/obsidian/ir"
)

// warpStmt checks what a shuffle, ballot or match needs: thread-level code and a
// result variable of type t.
func (c *compiler) warpStmt(result *ir.Var, t ir.Type, sc *scope, what string) (func(*machine, uint32, *vec), bool) {
	if sc.level != ir.ThreadLevel {
		c.errorf(sc.pos, "%s outside thread-level code", what)
		return nil, false
	}
	slot, lane, ok := c.target(result, t, sc)
	if !ok {
		return nil, false
	}
	return setter(slot, lane), true
}

// wholeWarp reports whether all lanes of the warp are active, as a
// shuffle, ballot or match over the full mask needs.
func wholeWarp(m *machine, pos ir.Pos, what string) bool {
	if m.mask != fullMask {
		m.report(true, pos, "inactive", "%s executed with inactive lanes (active mask %#08x): all 32 lanes of the "+
			"warp must take part", what, m.mask)
		return false
	}
	return true
}

// shuffleSource returns the lane whose value lane l receives, given the
// lane operand x of type t; ok is false when the operand lies outside 0 to
// 31: a lane or mask outside the warp, or a delta of a warp or more (the
// GPU would use its low five bits, so the program does not mean it). A
// delta that reaches past the warp's end leaves the lane its own value.
func shuffleSource(mode ir.ShuffleMode, l int, t ir.Type, x uint64) (src int, ok bool) {
	d := signExtend(t, x)
	if t.IsUnsigned() && x >= warpSize {
		d = warpSize
	}
	if d < 0 || d >= warpSize {
		return l, false
	}
	switch mode {
	case ir.ShuffleIdx:
		return int(d), true
	case ir.ShuffleXor:
		return l ^ int(d), true
	case ir.ShuffleUp:
		if l-int(d) < 0 {
			return l, true
		}
		return l - int(d), true
	}
	if l+int(d) >= warpSize {
		return l, true
	}
	return l + int(d), true
}

// shuffleOperands names the lane operand of each shuffle mode.
var shuffleOperands = [...]string{ir.ShuffleIdx: "lane", ir.ShuffleUp: "delta", ir.ShuffleDown: "delta", ir.ShuffleXor: "mask"}

func (c *compiler) shuffle(s *ir.Shuffle, sc *scope) stmtFn {
	value, tv := c.operand(s.Value, sc)
	lane, tl := c.operand(s.Lane, sc)
	if tv == ir.NoType || tl == ir.NoType {
		return nil
	}
	if !tl.IsInteger() || s.Mode < ir.ShuffleIdx || s.Mode > ir.ShuffleXor {
		c.errorf(sc.pos, "shuffle of mode %d with a lane operand of type %v", s.Mode, tl)
		return nil
	}
	set, ok := c.warpStmt(s.Result, tv, sc, "shuffle")
	if !ok {
		return nil
	}
	pos, mode := sc.pos, s.Mode
	return func(m *machine) {
		vv, lv, res := m.scratch(), m.scratch(), m.scratch()
		defer m.release(3)
		vv = value.get(m, vv)
		lv = lane.get(m, lv)
		if m.stop || !wholeWarp(m, pos, "shuffle") {
			return
		}
		for l := range res {
			src, ok := shuffleSource(mode, l, tl, lv[l])
			if !ok {
				m.report(true, pos, "lane", "shuffle in lane %d by the %s %s: want 0 to 31", l, shuffleOperands[mode],
					ir.Value{T: tl, Bits: lv[l]})
				return
			}
			res[l] = vv[src]
		}
		set(m, fullMask, res)
	}
}

func (c *compiler) ballot(s *ir.Ballot, sc *scope) stmtFn {
	pred, ok := c.cond(s.Pred, sc)
	if !ok {
		return nil
	}
	set, ok := c.warpStmt(s.Result, ir.Uint32, sc, "ballot")
	if !ok {
		return nil
	}
	pos := sc.pos
	return func(m *machine) {
		pv, res := m.scratch(), m.scratch()
		defer m.release(2)
		if pred(m, pv); m.stop || !wholeWarp(m, pos, "ballot") {
			return
		}
		votes := lanesHolding(pv)
		broadcast(res, uint64(votes))
		if s.Agree { // a lane whose pred fails agrees with the lanes not voting
			for l := range res {
				if pv[l]&1 == 0 {
					res[l] = uint64(^votes)
				}
			}
		}
		set(m, fullMask, res)
	}
}

func (c *compiler) matchAny(s *ir.MatchAny, sc *scope) stmtFn {
	value, t := c.expr(s.Value, sc)
	if t == ir.NoType {
		return nil
	}
	if !ir.Matchable(t) {
		c.errorf(sc.pos, "match of a %v value", t)
		return nil
	}
	set, ok := c.warpStmt(s.Result, ir.Uint32, sc, "match")
	if !ok {
		return nil
	}
	pos, bits := sc.pos, t.Mask()
	return func(m *machine) {
		vv, res := m.scratch(), m.scratch()
		defer m.release(2)
		if value(m, vv); m.stop || !wholeWarp(m, pos, "match") {
			return
		}
		for l := range res {
			var peers uint32
			for o := range vv {
				if (vv[o]^vv[l])&bits == 0 {
					peers |= 1 << o
				}
			}
			res[l] = uint64(peers)
		}
		set(m, fullMask, res)
	}
}
