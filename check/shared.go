package check

import (
	"sync/atomic"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/simplify"
)

// ConstValue returns the value of e when it simplifies to a constant (see
// simplify.Constant), as Verify sees loop counts.
func ConstValue(e ir.Expr) (ir.Value, bool) { return simplify.Constant(e) }

// PlaceShared lays out k's shared arrays (see the package doc), checks that
// they fit in t's shared memory, and sets each shared array's Offset and
// the kernel's SharedBytes.
func PlaceShared(k *ir.Kernel, t Target) error {
	l := layout(k)
	if err := l.check(k, t); err != nil {
		return err
	}
	l.apply(k)
	return nil
}

// verifications counts the calls of Verify, for the test that a kernel is
// verified once from Build to printing.
var verifications atomic.Int64
