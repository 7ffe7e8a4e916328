package eval

import "github.com/obsidian-go/obsidian/ir"

// Shuffles, ballots and matches need every lane of the warp. Verify accepts them
// under a thread-level if or loop only when its condition (or count) is
// provably the same in every lane of the warp, so that the whole warp takes
// the branch; the evaluator checks that the lanes did agree.

// hasWarpOp reports whether any of the bodies contains a shuffle, a ballot
// or a match, at any depth.
func hasWarpOp(bodies ...[]ir.Stmt) bool {
	found := false
	for _, body := range bodies {
		ir.WalkStmts(body, func(s ir.Stmt) bool {
			switch s.(type) {
			case *ir.Shuffle, *ir.Ballot, *ir.MatchAny:
				found = true
			}
			return !found
		})
	}
	return found
}

// lanesAgree reports whether the active lanes all take, or all skip, the
// body of the if or loop (what) at pos, which holds in the lanes of taken;
// otherwise it reports that they do not and stops the launch.
func lanesAgree(m *machine, pos ir.Pos, what string, active, taken uint32) bool {
	if t := taken & active; t == 0 || t == active {
		return true
	}
	m.report(true, pos, "nonuniform", "the lanes of a warp disagree on the condition of %s that contains a shuffle, "+
		"ballot or match: it holds in lanes %#08x of the active %#08x, but the whole warp must take the branch", what,
		taken&active, active)
	return false
}
