package codegen

import (
	"errors"

	"github.com/obsidian-go/obsidian/ir"
)

// Compile verifies k for t and returns a simplified deep copy of it with its
// shared arrays laid out (Offset of each shared array and SharedBytes set).
// k itself is not modified.
func Compile(k *ir.Kernel, t Target) (*ir.Kernel, error) {
	if err := Verify(k, t); err != nil {
		return nil, err
	}
	c := deepCopy(k)
	simplifyKernel(c)
	if err := checkFolded(c); err != nil {
		return nil, err
	}
	l := layout(c)
	if err := l.check(c, t); err != nil {
		return nil, err
	}
	l.apply(c)
	return c, nil
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
