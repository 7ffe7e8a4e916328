package check

import "github.com/obsidian-go/obsidian/ir"

// control walks the children of an if, a while or a for (by calling walk)
// with what the condition or count cond means for the threads: in a thread
// program, a branch the lanes of a warp may take differently (unless cond
// is provably the same in every lane of the warp, as a ballot's result is:
// then the whole warp takes the branch, and shuffles and ballots may be in
// it); elsewhere, a barrier that only some threads would reach.
func (v *verifier) control(s ir.Stmt, cond ir.Expr, walk func()) {
	x := v.dep.of(cond)
	if v.level == ir.ThreadLevel {
		saved := v.warp
		if x == perThread {
			v.warp.branched = true
		}
		walk()
		v.warp = saved
		return
	}
	group := "block"
	divergent := x != uniform
	if v.level == ir.WarpLevel {
		group, divergent = "warp", x == perThread
	}
	if !divergent {
		walk()
		return
	}
	if sync := firstSync(s); sync != nil {
		v.errorf(s.Position(), "barrier under a thread-dependent condition: the barrier at %v would be reached "+
			"by only some threads of the %s (the condition depends on the thread index)", sync.Pos, group)
	}
	v.divergent++
	walk()
	v.divergent--
}

// firstSync returns the first barrier inside s, at any depth.
func firstSync(s ir.Stmt) *ir.Sync {
	var found *ir.Sync
	ir.WalkStmts([]ir.Stmt{s}, func(s ir.Stmt) bool {
		if x, ok := s.(*ir.Sync); ok && found == nil {
			found = x
		}
		return found == nil
	})
	return found
}
