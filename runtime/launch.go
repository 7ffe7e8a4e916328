package runtime

import (
	"context"
	"errors"
	"fmt"

	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/simplify"
)

// gridSize returns the number of blocks to launch: cfg.Blocks, or when that
// is zero k's Blocks expression evaluated for args (k nil: a kernel loaded
// from CUDA text, which must be given the number). A computed count below 1
// launches one block; a count above 2^31-1, the largest grid a GPU launches,
// is an error rather than a smaller grid that would leave work undone.
func gridSize(name string, k *ir.Kernel, cfg LaunchConfig, args []boundArg) (int, error) {
	if cfg.Blocks < 0 {
		return 0, fmt.Errorf("launching kernel %s: %d blocks", name, cfg.Blocks)
	}
	if cfg.Blocks > 0 {
		return checkGrid(name, uint64(cfg.Blocks))
	}
	if k == nil {
		return 0, fmt.Errorf("launching kernel %s: it was loaded from CUDA text, so LaunchConfig.Blocks must be set", name)
	}
	if k.Blocks == nil {
		return 1, nil
	}
	lengths := map[*ir.Array]uint32{}
	scalars := map[*ir.Var]ir.Value{}
	evalArgs := make([]eval.Arg, len(args))
	for i, p := range k.Params {
		if p.Array != nil {
			lengths[p.Array] = uint32(args[i].n)
			evalArgs[i] = eval.Arg{Buffer: &eval.Buffer{Elem: p.Array.Elem}}
		} else {
			scalars[p.Scalar] = args[i].value
			evalArgs[i] = eval.Arg{Scalar: args[i].value}
		}
	}
	blocks := withLengths(k.Blocks, lengths)
	// Folded with the scalar arguments as constants, the count is most
	// often a constant at once; one that does not fold (one that would
	// fail, such as a division by zero) is evaluated, for its error.
	v, ok := simplify.Constant(withScalars(blocks, scalars))
	if !ok {
		var err error
		if v, err = eval.HostExpr(k, blocks, evalArgs); err != nil {
			return 0, fmt.Errorf("launching kernel %s: computing its number of blocks: %w", name, err)
		}
	}
	switch {
	case v.T.IsUnsigned():
		return checkGrid(name, max(1, v.Uint()))
	case v.Int() < 1:
		return 1, nil
	}
	return checkGrid(name, uint64(v.Int()))
}

// checkGrid returns blocks as an int, or an error if no GPU launches a grid
// that large.
func checkGrid(name string, blocks uint64) (int, error) {
	if blocks > maxBlocks {
		return 0, fmt.Errorf("launching kernel %s: %d blocks, more than the %d a grid may have", name, blocks, maxBlocks)
	}
	return int(blocks), nil
}

// errNilFunction is returned by a launch of a nil Function.
var errNilFunction = errors.New("launching a nil Function")

// cancelled returns the error of a launch of kernel on d whose context is
// done, or nil.
func cancelled(ctx context.Context, kernel string, d Device) error {
	if ctx == nil || ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("launching kernel %s on %s: %w", kernel, d.Name(), context.Cause(ctx))
}

// withLengths returns e with the lengths of the arrays in lengths replaced
// by constants, so that it can be evaluated without the arrays' contents.
func withLengths(e ir.Expr, lengths map[*ir.Array]uint32) ir.Expr {
	return ir.MapExpr(e, func(e ir.Expr) (ir.Expr, bool) {
		if l, ok := e.(*ir.Len); ok {
			if n, ok := lengths[l.Array]; ok {
				return &ir.Const{Value: ir.UintValue(ir.Uint32, uint64(n))}, true
			}
		}
		return nil, false
	})
}

// withScalars returns e with the scalar parameters in values replaced by
// constants.
func withScalars(e ir.Expr, values map[*ir.Var]ir.Value) ir.Expr {
	return ir.MapExpr(e, func(e ir.Expr) (ir.Expr, bool) {
		if v, ok := e.(*ir.Var); ok {
			if x, ok := values[v]; ok {
				return &ir.Const{Value: x}, true
			}
		}
		return nil, false
	})
}
