package eval

import (
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// BenchmarkExprHeavy launches a kernel whose store evaluates a chain of 60
// operators per element: the cost of operators in the evaluator.
func BenchmarkExprHeavy(b *testing.B) {
	in, out := global("in", ir.Uint32, ir.Input), global("out", ir.Uint32, ir.Output)
	i := index("i")
	var e ir.Expr = ld(in, i, 1)
	for k := 0; k < 30; k++ {
		e = bin(ir.Xor, add(e, u32(uint32(k))), bin(ir.Shr, u32(12345), u32(3)))
	}
	k := kernel(256, []*ir.Array{in, out}, nil, forAll(ir.GridThreads, i, &ir.Len{Array: in}, 1, st(out, i, e, 2)))
	inb, outb := iota32(4096), NewBuffer(ir.Uint32, 4096)
	for b.Loop() {
		if err := Launch(k, Config{Blocks: 16}, bufArgs(inb, outb)); err != nil {
			b.Fatal(err)
		}
	}
}
