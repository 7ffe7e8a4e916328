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

// TestFailuresShrinkToSmallTrees checks that a property failing on every
// expression with a division shrinks its counterexample to a division of
// constants.
func TestFailuresShrinkToSmallTrees(t *testing.T) {
	hasDivision := func(e ir.Expr) bool {
		found := false
		ir.WalkExpr(e, func(e ir.Expr) {
			if b, ok := e.(*ir.Binary); ok && b.Op == ir.Div && b.Type().IsInteger() {
				found = true
			}
		})
		return found
	}
	params := proptest.Parameters(t, 2000)
	result := prop.ForAll(func(e ir.Expr) bool { return !hasDivision(e) }, irgen.AnyExpr(6)).Check(params)
	if result.Status != gopter.TestFailed {
		t.Fatalf("no generated expression has an integer division (status %v)", result.Status)
	}
	e := result.Args[0].Arg.(ir.Expr)
	// A guarded signed division of two constants has 16 nodes, within a
	// conversion to the expression's type 17.
	if size(e) > 17 {
		t.Errorf("counterexample shrank to %d nodes, want at most 17: %s", size(e), irgen.FormatExpr(e))
	}
}
