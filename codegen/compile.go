package codegen

import (
	"errors"

	"github.com/obsidian-go/obsidian/check"
	"github.com/obsidian-go/obsidian/ir"
)

// Target describes the GPU the code is for (see check.Target).
type Target = check.Target

// DefaultTarget is sm_90 (H100, H200): 227 KiB of shared memory per block.
var DefaultTarget = check.DefaultTarget

// Verify checks that k is a kernel the printer and the evaluator can run
// correctly on target t (see check.Verify).
func Verify(k *ir.Kernel, t Target) error { return check.Verify(k, t) }

// compilation is a kernel going through the passes.
type compilation struct {
	in     *ir.Kernel // the kernel given, never modified
	out    *ir.Kernel // the compiled copy
	target Target
}

// passes are Compile's steps, in order; each runs once per kernel.
var passes = []func(*compilation) error{verifyPass, copyPass, simplifyPass, checkFoldedPass, csePass, placeSharedPass}

// verifyPass verifies the kernel, unless the dsl's Build has.
func verifyPass(c *compilation) error {
	if c.in.Verified {
		return nil
	}
	return check.Verify(c.in, c.target)
}

// copyPass makes the copy the other passes change.
func copyPass(c *compilation) error {
	c.out = deepCopy(c.in)
	return nil
}

// simplifyPass folds constants, applies identities and removes dead code.
func simplifyPass(c *compilation) error {
	simplifyKernel(c.out)
	return nil
}

// checkFoldedPass reports what folding showed to be undefined.
func checkFoldedPass(c *compilation) error { return checkFolded(c.out) }

// csePass computes each repeated subexpression once, into a local.
func csePass(c *compilation) error {
	eliminateCommonSubexpressions(c.out)
	return nil
}

// placeSharedPass lays out shared memory for the target.
func placeSharedPass(c *compilation) error { return check.PlaceShared(c.out, c.target) }

// Compile runs the passes on k for t: it verifies k (unless k.Verified),
// and returns a simplified deep copy of it, with each repeated
// subexpression computed once into a local (declared by a Decl named tN_)
// and its shared arrays laid out (Offset of each shared array and
// SharedBytes set). k itself is not modified.
func Compile(k *ir.Kernel, t Target) (*ir.Kernel, error) {
	if k == nil {
		return nil, ir.Errorf(ir.Pos{}, "no kernel")
	}
	c := &compilation{in: k, target: t}
	for _, pass := range passes {
		if err := pass(c); err != nil {
			return nil, err
		}
	}
	return c.out, nil
}

// CUDA compiles k for DefaultTarget and prints it. It returns the CUDA C
// text and the compiled kernel (whose SharedBytes a launch needs).
func CUDA(k *ir.Kernel) (string, *ir.Kernel, error) {
	c, err := Compile(k, DefaultTarget)
	if err != nil {
		return "", nil, err
	}
	return Print(c), c, nil
}

// checkFolded reports the operations that folding constants has shown to
// fail whatever their other operand, a division by zero or a shift count
// out of range, which the printed C would leave undefined: each at the line
// of the statement holding it.
func checkFolded(k *ir.Kernel) error {
	var errs []error
	ir.WalkStmts(k.Body, func(s ir.Stmt) bool {
		for _, e := range ir.Exprs(s) {
			ir.WalkExpr(e, func(e ir.Expr) {
				b, ok := e.(*ir.Binary)
				if !ok {
					return
				}
				y, isConst := b.Y.(*ir.Const)
				o, t := b.Op.Operation(), b.X.Type()
				if isConst && o != nil && o.AlwaysFaults(t, y.Value) {
					_, fault, _ := o.Apply(ir.Value{T: t}, y.Value)
					errs = append(errs, ir.Errorf(s.Position(), "%v of a %v by %v once constants are folded: %v",
						o.Name, t, y.Value, fault))
				}
			})
		}
		return true
	})
	return errors.Join(errs...)
}
