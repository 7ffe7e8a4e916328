package check

import (
	"errors"

	"github.com/obsidian-go/obsidian/ir"
)

// Verify checks that k is a kernel the printer and the evaluator can run
// correctly on target t. It returns nil, or every problem found as
// errors.Join of *ir.Error values in program order, each at the position of
// the offending statement or expression.
func Verify(k *ir.Kernel, t Target) error {
	verifications.Add(1)
	if k == nil {
		return ir.Errorf(ir.Pos{}, "no kernel")
	}
	v := newVerifier(k)
	v.kernel()
	v.blocks()
	v.body(k.Body)
	if err := layout(k).check(k, t); err != nil {
		v.errs = append(v.errs, err)
	}
	return errors.Join(v.errs...)
}

// verifier walks a kernel, collecting errors.
type verifier struct {
	k      *ir.Kernel
	dep    *dependence
	errs   []error
	arrays map[*ir.Array]bool // the kernel's arrays
	params map[*ir.Var]bool   // scalar parameters
	names  map[string]string  // what each name used so far belongs to
	// scopes holds the variables visible at each nesting depth.
	scopes   []map[*ir.Var]bool
	declared map[*ir.Var]bool
	loopVars map[*ir.Var]bool // For and ForAll indices, which must not be assigned
	level    ir.Level
	// warp describes the thread program being walked, for shuffles and
	// ballots.
	warp warpState
	// divergent is the number of enclosing Grid, Block or Warp level control
	// statements whose condition differs between threads.
	divergent int
	// blockBody and warpBody are the innermost GridBlocks and BlockWarps
	// ForAll whose body is being walked, or nil; homes holds the body in
	// which each shared or local array was first used (see sharedUse).
	blockBody, warpBody *ir.ForAll
	homes               map[homeKey]*ir.ForAll
}

// warpState says whether every lane of each warp runs the statement being
// checked.
type warpState struct {
	forAll   *ir.ForAll // the innermost ForAll with a Thread body, or nil
	complete bool       // that ForAll runs all ir.WarpSize lanes of every warp
	branched bool       // the statement is under an If, a While or a For of that body whose condition may differ between lanes
}

func newVerifier(k *ir.Kernel) *verifier {
	return &verifier{
		k:        k,
		dep:      analyseDependence(k),
		arrays:   map[*ir.Array]bool{},
		params:   map[*ir.Var]bool{},
		names:    map[string]string{},
		declared: map[*ir.Var]bool{},
		loopVars: map[*ir.Var]bool{},
		homes:    map[homeKey]*ir.ForAll{},
		scopes:   []map[*ir.Var]bool{{}},
		level:    ir.GridLevel,
	}
}

func (v *verifier) errorf(pos ir.Pos, format string, args ...any) {
	v.errs = append(v.errs, ir.Errorf(pos, format, args...))
}
