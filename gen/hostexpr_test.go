package gen

import (
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/obsidian-go/obsidian/internal/eval"
	_ "github.com/obsidian-go/obsidian/internal/golden" // accept -update like every test binary
	"github.com/obsidian-go/obsidian/internal/irgen"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
)

// exprGen makes random well-typed host expressions over the parameters of
// kernel k.
type exprGen struct {
	r       *rand.Rand
	k       *ir.Kernel
	scalars map[ir.Type]*ir.Var
	arrays  []*ir.Array
}

var interesting = []int64{0, 1, 2, 3, 5, 7, 31, 32, 33, 63, 64, 255, 256, -1, -2, math.MaxInt32, math.MinInt32,
	math.MaxUint32, math.MaxInt64, math.MinInt64}

func (g *exprGen) constant(t ir.Type) ir.Expr {
	switch {
	case t == ir.Bool:
		return &ir.Const{Value: ir.BoolValue(g.r.Intn(2) == 0)}
	case t.IsFloat() || t.IsStorageFloat():
		fs := []float64{0, math.Copysign(0, -1), 1, -1.5, 3.25, 1e10, -7e30, math.Inf(1), math.NaN(), 4294967296.5}
		return &ir.Const{Value: ir.FloatValue(t, fs[g.r.Intn(len(fs))])}
	}
	if g.r.Intn(3) == 0 {
		return &ir.Const{Value: ir.UintValue(t, g.r.Uint64())}
	}
	return &ir.Const{Value: ir.IntValue(t, interesting[g.r.Intn(len(interesting))])}
}

func (g *exprGen) leaf(t ir.Type) ir.Expr {
	switch n := g.r.Intn(3); {
	case n == 0 && t == ir.Uint32:
		return &ir.Len{Array: g.arrays[g.r.Intn(len(g.arrays))]}
	case n == 1 && g.scalars[t] != nil:
		return g.scalars[t]
	}
	return g.constant(t)
}

func (g *exprGen) expr(t ir.Type, depth int) ir.Expr {
	if depth == 0 || g.r.Intn(5) == 0 {
		return g.leaf(t)
	}
	sub := func(t ir.Type) ir.Expr { return g.expr(t, depth-1) }
	ops := irgen.OperationsGiving(t)
	switch n := g.r.Intn(3); {
	case n == 0:
		return &ir.Select{Cond: sub(ir.Bool), Then: sub(t), Else: sub(t)}
	case n == 1 || len(ops) == 0:
		from := ir.Types[g.r.Intn(len(ir.Types))]
		for !ir.ConversionDefined(from, t) {
			from = ir.Types[g.r.Intn(len(ir.Types))]
		}
		return &ir.Convert{To: t, X: sub(from)}
	}
	// an operation of the operator table giving t
	c := ops[g.r.Intn(len(ops))]
	args := make([]ir.Expr, c.Arity)
	for i := range args {
		args[i] = sub(c.Operand)
	}
	return c.Build(args...)
}

// TestHostExprMatchesEvaluator translates random expressions into Go, runs
// them in one program and compares every value and fault with the
// evaluator's.
func TestHostExprMatchesEvaluator(t *testing.T) {
	const cases = 300
	r := proptest.Parameters(t, cases).Rng
	k := &ir.Kernel{Name: "k", Threads: 32}
	g := &exprGen{r: r, k: k, scalars: map[ir.Type]*ir.Var{}}
	h := &hostExpr{scalars: map[*ir.Var]string{}, arrays: map[*ir.Array]string{}, fault: "fault"}
	var evalArgs []eval.Arg
	var goParams, goArgs []jen.Code
	lengths := map[*ir.Array]uint32{}
	for _, name := range []string{"x", "y"} {
		a := &ir.Array{Name: name, Elem: ir.Uint32, Space: ir.Global, Access: ir.Input}
		k.Params = append(k.Params, ir.Param{Array: a})
		g.arrays = append(g.arrays, a)
		h.arrays[a] = name
		n := uint32(r.Intn(3000))
		lengths[a] = n
		evalArgs = append(evalArgs, eval.Arg{Buffer: &eval.Buffer{Elem: ir.Uint32}})
		goParams = append(goParams, jen.Id(name).Op("*").Qual(runtimePath, "Buffer").Types(jen.Uint32()))
		goArgs = append(goArgs, jen.Id("buffer").Call(jen.Lit(int(n))))
	}
	for _, typ := range []ir.Type{ir.Uint32, ir.Int32, ir.Uint64, ir.Int64, ir.Float32, ir.Bool, ir.Int8, ir.Uint16, ir.BFloat16} {
		v := &ir.Var{Name: "p" + typ.String(), T: typ}
		k.Params = append(k.Params, ir.Param{Scalar: v})
		g.scalars[typ] = v
		h.scalars[v] = v.Name
		val := g.constant(typ).(*ir.Const).Value
		evalArgs = append(evalArgs, eval.Arg{Scalar: val})
		goParams = append(goParams, jen.Id(v.Name).Add(goType(typ)))
		goArgs = append(goArgs, literal(val))
	}

	f := jen.NewFile("main")
	var exprs []ir.Expr
	var calls []jen.Code
	for i := 0; i < cases; i++ {
		typ := ir.Types[r.Intn(len(ir.Types))]
		e := g.expr(typ, 4)
		code, err := h.expr(e)
		if err != nil {
			t.Fatalf("translating %#v: %v", e, err)
		}
		exprs = append(exprs, e)
		name := fmt.Sprintf("case%d", i)
		f.Func().Id(name).Params(goParams...).Params(jen.Uint64(), jen.Error()).Block(
			jen.Var().Id("fault").Qual(launchPath, "Fault"),
			jen.Id("v").Op(":=").Add(code),
			jen.Return(jen.Id("bitsOf").Call(jen.Id("v")), jen.Id("fault").Dot("Err").Call()),
		)
		calls = append(calls, jen.Id("report").Call(jen.Id(name).Call(goArgs...)))
	}
	f.Func().Id("main").Params().Block(calls...)
	f.Var().Id("_").Op("=").Qual("fmt", "Println") // the harness uses fmt and math
	f.Var().Id("_").Op("=").Qual("math", "Float32bits")
	f.Var().Id("_").Op("=").Qual(halfPath, "Float16From")
	lines := runGo(t, f)
	var i, faults int
	for ; i < len(lines); i++ {
		e := withLengths(exprs[i], lengths)
		want, wantErr := eval.HostExpr(k, e, evalArgs)
		fields := strings.Fields(lines[i])
		bits, _ := strconv.ParseUint(fields[0], 10, 64)
		faulted := fields[1] == "fault"
		if faulted {
			faults++
		}
		switch {
		case wantErr != nil && !faulted:
			t.Errorf("case %d: evaluator: %v; Go: %d\n%s", i, wantErr, bits, irgen.FormatExpr(exprs[i]))
		case wantErr == nil && faulted:
			t.Errorf("case %d: evaluator: %v; Go: a fault", i, want)
		case wantErr == nil && bits != want.Bits && !(isNaN(want) && isNaN(ir.Value{T: want.T, Bits: bits})):
			t.Errorf("case %d (%v): evaluator %v, Go %v", i, want.T, want, ir.Value{T: want.T, Bits: bits})
		}
	}
	if i != cases {
		t.Errorf("%d results for %d cases", i, cases)
	}
	t.Logf("%d cases, %d of them faulting", cases, faults)
}

func isNaN(v ir.Value) bool { return v.T.IsFloat() && math.IsNaN(v.Float()) }

// withLengths replaces the lengths of arrays by constants, as a launch does.
func withLengths(e ir.Expr, lengths map[*ir.Array]uint32) ir.Expr {
	return ir.MapExpr(e, func(e ir.Expr) (ir.Expr, bool) {
		if l, ok := e.(*ir.Len); ok {
			return &ir.Const{Value: ir.UintValue(ir.Uint32, uint64(lengths[l.Array]))}, true
		}
		return nil, false
	})
}

// hostExprHarness completes the program: buffers of given lengths, and a
// report line per case: the value's bits as the IR holds them, and whether
// it faulted.
const hostExprHarness = `
func buffer(n int) *runtime.Buffer[uint32] {
	b, err := runtime.Alloc[uint32](runtime.CPU(), n)
	if err != nil {
		panic(err)
	}
	return b
}

func bitsOf(v any) uint64 {
	switch v := v.(type) {
	case bool:
		if v {
			return 1
		}
		return 0
	case int32:
		return uint64(uint32(v))
	case uint32:
		return uint64(v)
	case int64:
		return uint64(v)
	case uint64:
		return v
	case float32:
		return uint64(math.Float32bits(v))
	case float64:
		return math.Float64bits(v)
	case int8:
		return uint64(uint8(v))
	case uint8:
		return uint64(v)
	case int16:
		return uint64(uint16(v))
	case uint16:
		return uint64(v)
	case half.Float16:
		return uint64(v)
	case half.BFloat16:
		return uint64(v)
	}
	panic(v)
}

func report(bits uint64, err error) {
	if err != nil {
		fmt.Println(0, "fault")
		return
	}
	fmt.Println(bits, "ok")
}
`
