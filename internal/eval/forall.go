package eval

import (
	"github.com/obsidian-go/obsidian/ir"
)

// lowLanes returns the mask of lanes [0, n), n <= 32.
func lowLanes(n uint64) uint32 { return uint32(uint64(1)<<n - 1) }

// placed reports whether a ForAll of kind k may appear in code of level l.
func placed(k ir.ForAllKind, l ir.Level) bool {
	switch k {
	case ir.GridThreads, ir.GridBlocks:
		return l == ir.GridLevel
	case ir.BlockThreads, ir.BlockWarps:
		return l == ir.GridLevel || l == ir.BlockLevel
	case ir.WarpLanes:
		return l == ir.WarpLevel
	}
	return false
}

func (c *compiler) forAll(s *ir.ForAll, sc *scope) stmtFn {
	if !placed(s.Kind, sc.level) {
		c.errorf(sc.pos, "ForAll %v in %v-level code", s.Kind, sc.level)
		return nil
	}
	count, tc := c.expr(s.Count, sc)
	if tc != ir.NoType && !tc.IsInteger() {
		c.errorf(sc.pos, "ForAll count of type %v", tc)
		tc = ir.NoType
	}
	inner := c.under(sc, s.Count)
	inner.level = s.Kind.Inner()
	inner.inWarp = inner.level == ir.WarpLevel || (inner.level == ir.ThreadLevel && s.Kind == ir.WarpLanes)
	if s.Kind == ir.BlockWarps || s.Kind == ir.WarpLanes {
		c.prog.usesWarps = true
	}
	if s.Var == nil || !s.Var.T.IsInteger() {
		c.errorf(sc.pos, "ForAll index variable missing or not of an integer type")
		c.stmts(s.Body, inner)
		return nil
	}
	slot, _, okVar := c.target(s.Var, s.Var.T, inner)
	body := c.warpPass(s, func() stmtFn { return c.stmts(s.Body, inner) })
	if tc == ir.NoType || !okVar {
		return nil
	}
	loop := forAllLoops[s.Kind]
	pos, vmask := sc.pos, widthMask(s.Var.T)
	return func(m *machine) {
		cv := m.scratch()
		count(m, cv)
		n := iterations(tc, cv[0])
		m.release(1)
		if !m.stop {
			loop(m, n, slot, vmask, body, pos)
		}
	}
}

// warpPass compiles the body of s by compile and, for a BlockWarps ForAll
// whose body uses PerWarp arrays, makes each pass of the body start with
// the warp's regions of them unwritten: the arrays belong to the pass (see
// dsl.WarpShared), so a pass that reads an element it has not written is
// reported, where on the GPU it would read what an earlier warp index run
// by the same warp (or an earlier ForAllWarps) left there.
func (c *compiler) warpPass(s *ir.ForAll, compile func() stmtFn) stmtFn {
	if s.Kind != ir.BlockWarps {
		return compile()
	}
	saved := c.warpArrays
	var arrays []int
	c.warpArrays = &arrays
	body := compile()
	c.warpArrays = saved
	if len(arrays) == 0 || body == nil {
		return body
	}
	return func(m *machine) {
		for _, slot := range arrays {
			m.forgetWarpWrites(m.mems[slot])
		}
		body(m)
	}
}

// forAllLoop runs the n iterations of a ForAll that fall to the current
// block (or warp), with the index in slot.
type forAllLoop func(m *machine, n uint64, slot int, vmask uint64, body stmtFn, pos ir.Pos)

var forAllLoops = map[ir.ForAllKind]forAllLoop{
	ir.GridThreads: func(m *machine, n uint64, slot int, vmask uint64, body stmtFn, pos ir.Pos) {
		threads := uint64(m.threads)
		threadLoop(m, n, threads*uint64(m.block), threads*uint64(m.blocks), slot, vmask, body, pos)
	},
	ir.BlockThreads: func(m *machine, n uint64, slot int, vmask uint64, body stmtFn, pos ir.Pos) {
		threadLoop(m, n, 0, uint64(m.threads), slot, vmask, body, pos)
	},
	ir.WarpLanes: func(m *machine, n uint64, slot int, vmask uint64, body stmtFn, pos ir.Pos) {
		// Lane l runs indices l, l + 32, ...: a round of the warp each.
		for first := uint64(0); first < n && m.step(pos); first += warpSize {
			if runLanes(m, m.warpBase, lowLanes(min(warpSize, n-first)), first, slot, vmask, body); m.stop {
				return
			}
		}
	},
	ir.GridBlocks: func(m *machine, n uint64, slot int, vmask uint64, body stmtFn, pos ir.Pos) {
		// Each virtual block starts with shared memory that holds nothing
		// it wrote (on the GPU, another block may have run the one before),
		// and nothing after the loop holds what it wrote.
		defer m.nextBody()
		for vb := uint64(m.block); vb < n && m.step(pos); vb += uint64(m.blocks) {
			m.uniform[slot], m.uniformDef[slot] = vb&vmask, true
			m.nextBody()
			if body(m); m.stop {
				return
			}
			if len(m.prog.kernel.Shared) > 0 {
				// The printed kernel ends every pass with __syncthreads(),
				// so that the next virtual block's shared-memory writes
				// wait for this one's reads.
				m.barrier()
			}
		}
	},
	ir.BlockWarps: func(m *machine, n uint64, slot int, vmask uint64, body stmtFn, pos ir.Pos) {
		warps, saved := uint64(m.threads/warpSize), m.warpBase
		for vw := uint64(0); vw < n && m.step(pos); vw++ {
			m.warpBase = int(vw%warps) * warpSize
			m.uniform[slot], m.uniformDef[slot] = vw&vmask, true
			if body(m); m.stop {
				break
			}
		}
		m.warpBase = saved
	},
}

// threadLoop runs iterations [0, n) of a thread-level body on the threads
// of the block, a warp at a time: iteration first + t + k*stride runs on
// thread t for k = 0, 1, ...
func threadLoop(m *machine, n, first, stride uint64, slot int, vmask uint64, body stmtFn, pos ir.Pos) {
	threads := uint64(m.threads)
	for base := first; base < n; base += stride {
		for t0 := uint64(0); t0 < threads && base+t0 < n; t0 += warpSize {
			if !m.step(pos) {
				return
			}
			lanes := min(warpSize, threads-t0, n-base-t0)
			if runLanes(m, int(t0), lowLanes(lanes), base+t0, slot, vmask, body); m.stop {
				return
			}
		}
	}
}

// runLanes runs a thread-level body on the warp whose lane 0 is thread
// warpBase, with the lanes of mask active and index first+l in lane l.
func runLanes(m *machine, warpBase int, mask uint32, first uint64, slot int, vmask uint64, body stmtFn) {
	savedBase, savedMask := m.warpBase, m.mask
	m.warpBase, m.mask = warpBase, mask
	m.nextRound()
	clear(m.laneDef)
	index := &m.lanes[slot]
	for l := range index {
		index[l] = (first + uint64(l)) & vmask
	}
	m.laneDef[slot] = mask
	body(m)
	m.warpBase, m.mask = savedBase, savedMask
}
