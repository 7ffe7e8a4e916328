package codegen

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/ir"
)

// chain returns an expression n operations deep over the uint32 x and y:
// right-nested (x + (y ^ (x + ...))) or left-nested (((x + y) ^ x) + ...).
func chain(x, y ir.Expr, n int, right bool) ir.Expr {
	e := x
	for i := range n {
		op := []ir.BinOp{ir.Add, ir.Xor, ir.Mul, ir.Or}[i%4]
		if right {
			e = bin(op, y, e)
		} else {
			e = bin(op, e, y)
		}
	}
	return e
}

// deepKernel stores chains of n operations: right-nested, left-nested, and
// nested calls.
func deepKernel(n int) *ir.Kernel {
	return gridCopy("deep", ir.Uint32, func(x ir.Expr) ir.Expr {
		calls := x
		for range n {
			calls = bin(ir.Max, bin(ir.Min, calls, u32(100)), x)
		}
		return bin(ir.Add, bin(ir.Add, chain(x, x, n, true), chain(x, x, n, false)), calls)
	})
}

// parenDepth returns the deepest nesting of parentheses in src.
func parenDepth(src string) int {
	depth, deepest := 0, 0
	for _, r := range src {
		switch r {
		case '(':
			depth++
			deepest = max(deepest, depth)
		case ')':
			depth--
		}
	}
	return deepest
}

// TestPrintDeepExpressionsStayInsideClangLimits checks that no printed
// expression nests more than 200 parentheses (clang accepts 256): 300
// right-nested operations printed 299 nested parentheses.
func TestPrintDeepExpressionsStayInsideClangLimits(t *testing.T) {
	src, _ := mustCUDA(t, deepKernel(300))
	if d := parenDepth(src); d > 200 {
		t.Errorf("parentheses nest %d deep", d)
	}
	if strings.Count(src, "const unsigned int t") < 3 {
		t.Errorf("deep expressions are not cut into locals:\n%.2000s", src)
	}
}

// TestPrintIsLinear prints an expression of about 10^5 nodes, which took
// time cubic in its size (1 600 nested additions: over a minute).
func TestPrintIsLinear(t *testing.T) {
	c, err := Compile(deepKernel(30000), DefaultTarget)
	if err != nil {
		t.Fatal(err)
	}
	nodes := 0
	ir.WalkStmts(c.Body, func(s ir.Stmt) bool {
		for _, e := range ir.Exprs(s) {
			ir.WalkExpr(e, func(ir.Expr) { nodes++ })
		}
		return true
	})
	if nodes < 100000 {
		t.Fatalf("the kernel has %d nodes, want at least 10^5", nodes)
	}
	start := time.Now()
	src := Print(c)
	d := time.Since(start)
	t.Logf("printing %d nodes (%d bytes of CUDA) took %v", nodes, len(src), d)
	// A guard on the complexity, not a timing: a printer quadratic in the
	// depth takes hours here (the cubic one it replaced did not finish),
	// a linear one well under a second even on a loaded machine.
	if d > 20*time.Second {
		t.Errorf("printing %d nodes took %v: the printer is not linear", nodes, d)
	}
	if d := parenDepth(src); d > 200 {
		t.Errorf("parentheses nest %d deep", d)
	}
}

// TestCompileReportsUndefinedOperationsAfterFolding checks that an
// operation that folding shows to fail whatever its other operand is an
// error at the statement's line, not printed as x << 32u.
func TestCompileReportsUndefinedOperationsAfterFolding(t *testing.T) {
	y := v("y", ir.Uint32)
	for _, c := range []struct {
		name string
		f    func(x ir.Expr) ir.Expr
		want string
	}{
		{"shift", func(x ir.Expr) ir.Expr { return bin(ir.Shl, x, bin(ir.Sub, bin(ir.Add, y, u32(32)), y)) },
			"Shl of a uint32 by 32 once constants are folded"},
		{"division", func(x ir.Expr) ir.Expr {
			return bin(ir.Div, x, bin(ir.Sub, bin(ir.Sub, bin(ir.Add, y, u32(5)), y), u32(5)))
		}, "Div of a uint32 by 0 once constants are folded"},
	} {
		k := gridCopy("folded", ir.Uint32, c.f)
		k.Params = append(k.Params, ir.Param{Scalar: y})
		_, _, err := CUDA(k)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "kernel.go:11") {
			t.Errorf("%s: %v, want %q at kernel.go:11", c.name, err, c.want)
		}
	}
}

// TestCompileIsLinearInWideExpressions compiles a kernel whose last
// statements read ten thousand variables each: knowing whether an
// expression still holds its value took time quadratic in the number of
// variables it reads (and the sets of them cubic: over a minute).
func TestCompileIsLinearInWideExpressions(t *testing.T) {
	in, out := global("in", ir.Uint32, ir.Input, 2), global("out", ir.Uint32, ir.Output, 3)
	i := v("i", ir.Uint32)
	var body []ir.Stmt
	var sum ir.Expr = u32(0)
	for j := range 10000 {
		x := v(fmt.Sprintf("x%d", j), ir.Uint32)
		body = append(body, decl(x, bin(ir.Add, load(in, bin(ir.Add, i, u32(uint64(j))), 11), u32(1)), 11))
		sum = bin(ir.Add, bin(ir.Mul, x, x), sum)
	}
	body = append(body, store(out, i, sum, 12), store(out, bin(ir.Xor, i, u32(1)), sum, 12))
	k := kernel("wide", []*ir.Array{in, out}, nil, forAll(ir.GridThreads, i, &ir.Len{Array: in}, 10, body...))
	start := time.Now()
	c, err := Compile(k, DefaultTarget)
	// A guard on the complexity: a pass quadratic in the width took
	// minutes here; a linear one a fraction of a second.
	if d := time.Since(start); err != nil || d > 30*time.Second {
		t.Fatalf("Compile took %v: %v", d, err)
	}
	if n := locals(c); n != 1 {
		t.Errorf("the sum read twice makes %d locals, want 1", n)
	}
}
