package simplify_test

import (
	"fmt"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/simplify"
)

// Constant finds the value of an expression that folds to a constant, with
// the operator table's semantics (here uint32 arithmetic that wraps).
func ExampleConstant() {
	three := &ir.Const{Value: ir.UintValue(ir.Uint32, 3)}
	max := &ir.Const{Value: ir.UintValue(ir.Uint32, 1<<32-1)}
	sum := &ir.Binary{Op: ir.Add, X: max, Y: &ir.Binary{Op: ir.Mul, X: three, Y: three}}
	v, ok := simplify.Constant(sum)
	fmt.Println(v, ok)
	// Output:
	// 8 true
}
