package gen

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"

	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/internal/irgen"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/simplify"
)

// tableCase is one operation of the operator table applied to values.
type tableCase struct {
	name string
	e    ir.Expr // the operation on the kernel's scalar parameters
	args []eval.Arg
	vals []ir.Value
}

// TestOperatorTableStagesAgree walks the operator table and applies every
// operation, on every type it accepts, to random values (edge values often:
// zeros of both signs, subnormals, infinities, NaNs, extreme integers) in
// four stages that must agree: the table's own semantics (the test
// oracle), the evaluator, constant folding (where it folds), and the Go code
// the host translator writes for launchers, compiled and run.
func TestOperatorTableStagesAgree(t *testing.T) {
	const perOperation = 6
	rng := proptest.Parameters(t, perOperation).Rng
	var cases []tableCase
	add := func(o *ir.Operation, name string, typ ir.Type, build func(args []ir.Expr) ir.Expr) {
		for range perOperation {
			k := &ir.Kernel{Name: "k", Threads: 32}
			c := tableCase{name: fmt.Sprintf("%s(%v)", name, typ)}
			params := make([]ir.Expr, o.Arity)
			for i := range params {
				v := &ir.Var{Name: fmt.Sprintf("p%d", i), T: typ}
				k.Params = append(k.Params, ir.Param{Scalar: v})
				params[i] = v
				val := irgen.Value(rng, typ)
				c.vals = append(c.vals, val)
				c.args = append(c.args, eval.Arg{Scalar: val})
			}
			c.e = build(params)
			cases = append(cases, c)
		}
	}
	for _, op := range ir.UnOps() {
		for _, typ := range op.Operation().Types.Types() {
			add(op.Operation(), op.String(), typ, func(a []ir.Expr) ir.Expr { return &ir.Unary{Op: op, X: a[0]} })
		}
	}
	for _, op := range ir.BinOps() {
		for _, typ := range op.Operation().Types.Types() {
			add(op.Operation(), op.String(), typ, func(a []ir.Expr) ir.Expr { return &ir.Binary{Op: op, X: a[0], Y: a[1]} })
		}
	}
	for _, op := range ir.TernOps() {
		for _, typ := range op.Operation().Types.Types() {
			add(op.Operation(), op.String(), typ, func(a []ir.Expr) ir.Expr {
				return &ir.Ternary{Op: op, X: a[0], Y: a[1], Z: a[2]}
			})
		}
	}

	// the host translator's Go, one function a case
	f := jen.NewFile("main")
	var calls []jen.Code
	for i, c := range cases {
		h := &hostExpr{scalars: map[*ir.Var]string{}, arrays: map[*ir.Array]string{}, fault: "fault"}
		var params, args []jen.Code
		for j, v := range c.vals {
			name := fmt.Sprintf("p%d", j)
			h.scalars[ir.Children(c.e)[j].(*ir.Var)] = name
			params = append(params, jen.Id(name).Add(goType(v.T)))
			args = append(args, literal(v))
		}
		code, err := h.expr(c.e)
		if err != nil {
			t.Fatalf("%s: translating: %v", c.name, err)
		}
		fn := fmt.Sprintf("case%d", i)
		f.Func().Id(fn).Params(params...).Params(jen.Uint64(), jen.Error()).Block(
			jen.Var().Id("fault").Qual(launchPath, "Fault"),
			jen.Id("v").Op(":=").Add(code),
			jen.Return(jen.Id("bitsOf").Call(jen.Id("v")), jen.Id("fault").Dot("Err").Call()),
		)
		calls = append(calls, jen.Id("report").Call(jen.Id(fn).Call(args...)))
	}
	f.Func().Id("main").Params().Block(calls...)
	f.Var().Id("_").Op("=").Qual("fmt", "Println")
	f.Var().Id("_").Op("=").Qual("math", "Float32bits")
	f.Var().Id("_").Op("=").Qual(runtimePath, "CPU")
	f.Var().Id("_").Op("=").Qual(halfPath, "Float16From")
	host := runGo(t, f)

	for i, c := range cases {
		o := c.vals
		var want ir.Value
		var fault ir.Fault
		var ok bool
		switch e := c.e.(type) {
		case *ir.Unary:
			want, fault, ok = e.Op.Operation().Apply(o...)
		case *ir.Binary:
			want, fault, ok = e.Op.Operation().Apply(o...)
		case *ir.Ternary:
			want, fault, ok = e.Op.Operation().Apply(o...)
		}
		if !ok {
			t.Fatalf("%s: the table does not apply to %v", c.name, o)
		}
		k := &ir.Kernel{Name: "k", Threads: 32}
		for _, p := range ir.Children(c.e) {
			k.Params = append(k.Params, ir.Param{Scalar: p.(*ir.Var)})
		}
		got, err := eval.HostExpr(k, c.e, c.args)
		switch {
		case fault != ir.NoFault && (err == nil || !strings.Contains(err.Error(), fault.String())):
			t.Errorf("%s%v: evaluator %v, %v; want the fault %v", c.name, o, got, err, fault)
		case fault == ir.NoFault && (err != nil || !same(got, want)):
			t.Errorf("%s%v: evaluator %v, %v; want %v", c.name, o, got, err, want)
		}
		closed := ir.MapExpr(c.e, func(e ir.Expr) (ir.Expr, bool) {
			if v, isVar := e.(*ir.Var); isVar {
				return &ir.Const{Value: o[v.Name[1]-'0']}, true
			}
			return nil, false
		})
		if folded, isConst := simplify.Constant(closed); isConst && (fault != ir.NoFault || !same(folded, want)) {
			t.Errorf("%s%v: folded to %v; want %v (fault %v)", c.name, o, folded, want, fault)
		}
		line := strings.Fields(host[i])
		bits, _ := strconv.ParseUint(line[0], 10, 64)
		switch {
		case fault != ir.NoFault && line[1] != "fault":
			t.Errorf("%s%v: host code %v; want the fault %v", c.name, o, ir.Value{T: want.T, Bits: bits}, fault)
		case fault == ir.NoFault && (line[1] != "ok" || !same(ir.Value{T: want.T, Bits: bits}, want)):
			t.Errorf("%s%v: host code %s %v; want %v", c.name, o, line[1], ir.Value{T: want.T, Bits: bits}, want)
		}
	}
	t.Logf("%d cases", len(cases))
}

// same reports whether two values are equal, any NaN equal to any other.
func same(a, b ir.Value) bool { return a == b || (isNaN(a) && isNaN(b) && a.T == b.T) }

// runGo renders f with the host expression harness, runs it and returns
// its output lines.
func runGo(t *testing.T, f *jen.File) []string {
	t.Helper()
	var src bytes.Buffer
	if err := f.Render(&src); err != nil {
		t.Fatal(err)
	}
	src.WriteString(hostExprHarness)
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata", "hostexpr-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "main.go"), src.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "main.go")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("running the translated expressions: %v\n%s", err, out)
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}
