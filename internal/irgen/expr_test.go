package irgen_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/internal/irgen"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
)

// TestEvalMatchesReference checks that the evaluator computes every
// generated expression exactly as Go's own arithmetic does.
func TestEvalMatchesReference(t *testing.T) {
	props := properties(t, 10000)
	props.Property("eval.Expr equals the reference", prop.ForAll(func(e ir.Expr) string {
		want, fault := interpret(e)
		if fault != "" {
			return fmt.Sprintf("generated expression faults (%s): %s", fault, irgen.FormatExpr(e))
		}
		got, err := eval.Expr(e)
		switch {
		case err != nil:
			return fmt.Sprintf("eval of %s: %v", irgen.FormatExpr(e), err)
		case !sameValue(got, irValue(want)):
			return fmt.Sprintf("eval of %s = %s (bits %#x), want %s (bits %#x)", irgen.FormatExpr(e), got,
				got.Bits, irValue(want), irValue(want).Bits)
		}
		return ""
	}, irgen.AnyExpr(5)))
	props.TestingRun(t)
}

// TestEvalReportsFaults checks that the evaluator reports the fault of an
// unguarded division or shift as an error, and computes the value of one
// that does not fault.
func TestEvalReportsFaults(t *testing.T) {
	props := properties(t, 5000)
	faults := 0
	props.Property("eval.Expr faults where the reference does", prop.ForAll(func(e ir.Expr) string {
		want, fault := interpret(e)
		got, err := eval.Expr(e)
		switch {
		case fault == "" && err != nil:
			return fmt.Sprintf("eval of %s: %v, want %s", irgen.FormatExpr(e), err, irValue(want))
		case fault == "" && !sameValue(got, irValue(want)):
			return fmt.Sprintf("eval of %s = %s, want %s", irgen.FormatExpr(e), got, irValue(want))
		case fault == "":
			return ""
		case err == nil:
			return fmt.Sprintf("eval of %s = %s, want the error %q", irgen.FormatExpr(e), got, fault)
		case !strings.Contains(err.Error(), fault) || strings.Contains(err.Error(), "internal error"):
			return fmt.Sprintf("eval of %s: %v, want the error %q", irgen.FormatExpr(e), err, fault)
		}
		faults++
		return ""
	}, irgen.Unguarded(4)))
	props.TestingRun(t)
	if faults == 0 {
		t.Error("no generated expression faulted")
	}
}

// TestShrinksAreSmallerAndWellDefined checks the expression shrinker: every
// shrink keeps the type, is well defined and is smaller or simpler.
func TestShrinksAreSmallerAndWellDefined(t *testing.T) {
	props := properties(t, 300)
	props.Property("shrinks keep type and guards", prop.ForAll(func(e ir.Expr) string {
		for _, s := range irgen.ShrinkExpr(e).All() {
			s := s.(ir.Expr)
			switch _, fault := interpret(s); {
			case s.Type() != e.Type():
				return fmt.Sprintf("shrink %s of %s has type %v", irgen.FormatExpr(s), irgen.FormatExpr(e), s.Type())
			case fault != "":
				return fmt.Sprintf("shrink %s of %s faults: %s", irgen.FormatExpr(s), irgen.FormatExpr(e), fault)
			case size(s) > size(e):
				return fmt.Sprintf("shrink %s of %s is larger", irgen.FormatExpr(s), irgen.FormatExpr(e))
			}
		}
		return ""
	}, irgen.AnyExpr(4)))
	props.TestingRun(t)
}

// TestFailuresShrinkToSmallTrees checks, for expressions of every type,
// that a property failing on every expression with an integer division
// shrinks its counterexample to the smallest such expression: a guarded
// division of two constants within the fewest conversions that reach the
// expression's type.
func TestFailuresShrinkToSmallTrees(t *testing.T) {
	for _, typ := range ir.Types {
		t.Run(typ.String(), func(t *testing.T) {
			params := proptest.Parameters(t, 2000)
			result := prop.ForAll(func(e ir.Expr) bool { return !hasDivision(e) }, irgen.Expr(typ, 6)).Check(params)
			if result.Status != gopter.TestFailed {
				t.Fatalf("no generated expression has an integer division (status %v)", result.Status)
			}
			e := result.Args[0].Arg.(ir.Expr)
			if msg := notSmallestDivision(e); msg != "" {
				t.Errorf("counterexample %s (%d nodes) %s", irgen.FormatExpr(e), size(e), msg)
			}
		})
	}
}

// hasDivision reports whether e contains an integer division.
func hasDivision(e ir.Expr) bool {
	found := false
	ir.WalkExpr(e, func(e ir.Expr) {
		if b, ok := e.(*ir.Binary); ok && b.Op == ir.Div && b.Type().IsInteger() {
			found = true
		}
	})
	return found
}

// notSmallestDivision says how e differs from the smallest expressions with
// an integer division: Guarded(Div, x, y) of constants x and y, converted
// to e's type directly where the conversion is defined and through float32
// otherwise (float16 and bfloat16 convert only from float32), and returns
// "" when it does not.
func notSmallestDivision(e ir.Expr) string {
	core, conversions := e, 0
	for c, ok := core.(*ir.Convert); ok; c, ok = core.(*ir.Convert) {
		core, conversions = c.X, conversions+1
	}
	div, ok := core.(*ir.Binary)
	if !ok || div.Op != ir.Div || !div.Type().IsInteger() {
		return "is not an integer division within conversions"
	}
	x, xConst := div.X.(*ir.Const)
	guard, isSelect := div.Y.(*ir.Select)
	if !xConst || !isSelect {
		return "is not a guarded division of constants"
	}
	y, yConst := guard.Else.(*ir.Const)
	if !yConst || irgen.FormatExpr(div) != irgen.FormatExpr(irgen.Guarded(ir.Div, x, y)) {
		return "is not a guarded division of constants"
	}
	if want := conversionsBetween(div.Type(), e.Type()); conversions != want {
		return fmt.Sprintf("has %d conversions around the division, want %d", conversions, want)
	}
	return ""
}

// conversionsBetween returns the fewest conversions from type from to type
// to: none, one where it is defined, else two, through float32.
func conversionsBetween(from, to ir.Type) int {
	switch {
	case from == to:
		return 0
	case ir.ConversionDefined(from, to):
		return 1
	}
	return 2
}

// TestStorageFloatSelectShrinksToItsCondition checks that a float16 or
// bfloat16 select has its condition, converted through float32, among its
// shrinks: the only smaller tree of its type that keeps what the condition
// holds, such as a division.
func TestStorageFloatSelectShrinksToItsCondition(t *testing.T) {
	for _, typ := range []ir.Type{ir.Float16, ir.BFloat16} {
		cond := &ir.Convert{To: ir.Bool, X: irgen.Guarded(ir.Div, &ir.Const{Value: ir.IntValue(ir.Int32, 7)},
			&ir.Const{Value: ir.IntValue(ir.Int32, 2)})}
		arm := &ir.Const{Value: ir.Value{T: typ}}
		e := &ir.Select{Cond: cond, Then: arm, Else: arm}
		want := irgen.FormatExpr(&ir.Convert{To: typ, X: &ir.Convert{To: ir.Float32, X: cond}})
		found := false
		for _, s := range irgen.ShrinkExpr(e).All() {
			found = found || irgen.FormatExpr(s.(ir.Expr)) == want
		}
		if !found {
			t.Errorf("no shrink of %s is %s", irgen.FormatExpr(e), want)
		}
	}
}
