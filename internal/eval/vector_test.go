package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
)

// tableOperation is an operation of the operator table with its name.
type tableOperation struct {
	name string
	op   *ir.Operation
}

// everyOperation lists every unary, binary and ternary operation of the
// operator table.
func everyOperation() []tableOperation {
	var ops []tableOperation
	for _, op := range ir.UnOps() {
		ops = append(ops, tableOperation{op.String(), op.Operation()})
	}
	for _, op := range ir.BinOps() {
		ops = append(ops, tableOperation{op.String(), op.Operation()})
	}
	for _, op := range ir.TernOps() {
		ops = append(ops, tableOperation{op.String(), op.Operation()})
	}
	return ops
}

// randomBits returns random bits of a value of type t, often one of the
// values at the edges of t's range (zero, one, the extremes, small shift
// counts; for floats the zeros, infinities and a NaN), so that equal
// operands and limits come up.
func randomBits(r *rand.Rand, t ir.Type) uint64 {
	m := widthMask(t)
	edges := []uint64{0, 1, 2, m, m >> 1, m>>1 + 1, uint64(r.IntN(70))}
	switch t {
	case ir.Float32:
		edges = append(edges, uint64(math.Float32bits(float32(math.Inf(1)))), 1<<31, 0x7fc00000)
	case ir.Float64:
		edges = append(edges, math.Float64bits(math.Inf(-1)), 1<<63, math.Float64bits(math.NaN()))
	}
	if r.IntN(3) == 0 {
		return edges[r.IntN(len(edges))] & m
	}
	return r.Uint64() & m
}

// TestVectorFormsMatchTheOperatorTable checks that the vector form of every
// operation of the table, on every type it takes, computes on every lane
// what the table's Func does on that lane's operands, wherever the Func
// does not fault, also when the result overwrites the first operand.
func TestVectorFormsMatchTheOperatorTable(t *testing.T) {
	props := properties(t)
	props.Property("vector forms compute the table's Func on every lane", prop.ForAll(func(seed uint64) bool {
		r := rand.New(rand.NewPCG(seed, seed>>32))
		for _, o := range everyOperation() {
			for _, typ := range o.op.Types.Types() {
				fn, ok := o.op.Func(typ)
				if !ok {
					continue
				}
				if err := checkVectorForm(r, o, typ, fn); err != nil {
					t.Errorf("seed %d: %v", seed, err)
					return false
				}
			}
		}
		return true
	}, gen.UInt64()))
	props.TestingRun(t)
}

// checkVectorForm compares the vector form of o on type typ with fn on
// random operands.
func checkVectorForm(r *rand.Rand, o tableOperation, typ ir.Type, fn ir.Func) error {
	var x, y, z vec
	for l := range x {
		x[l], y[l], z[l] = randomBits(r, typ), randomBits(r, typ), randomBits(r, typ)
	}
	form := vectorOp(o.op, typ, fn)
	var out vec
	form(&out, &x, &y, &z)
	inPlace := x
	form(&inPlace, &inPlace, &y, &z)
	for l := range out {
		want, fault := fn(x[l], y[l], z[l])
		if fault != ir.NoFault {
			continue
		}
		if out[l] != want || inPlace[l] != want {
			return fmt.Errorf("%s on %v (%#x, %#x, %#x): vector form gives %#x (in place %#x), the table %#x",
				o.name, typ, x[l], y[l], z[l], out[l], inPlace[l], want)
		}
	}
	return nil
}

// TestVectorFormsCoverTheirOperations checks that every vector form is of
// an operation of the table.
func TestVectorFormsCoverTheirOperations(t *testing.T) {
	known := map[*ir.Operation]bool{}
	for _, o := range everyOperation() {
		known[o.op] = true
	}
	for op := range vectorForms {
		if op == nil || !known[op] {
			t.Errorf("vector form of %v, which is not in the operator table", op)
		}
	}
}

// TestOperatorsInKernelsMatchTheOperatorTable runs every binary operation
// on 32-bit integers in a kernel, on the lanes a condition leaves active,
// with operands of each kind the evaluator reads differently (a load, a
// thread-level variable, a constant), and checks each result against
// Operation.Apply, or that a fault on an active lane is reported.
func TestOperatorsInKernelsMatchTheOperatorTable(t *testing.T) {
	props := gopter.NewProperties(proptest.Parameters(t, 60))
	props.Property("operators in kernels compute the table's", prop.ForAll(func(seed uint64) bool {
		r := rand.New(rand.NewPCG(seed, seed>>32))
		for _, op := range ir.BinOps() {
			for _, typ := range []ir.Type{ir.Int32, ir.Uint32} {
				o := op.Operation()
				if !o.Types.Has(typ) {
					continue
				}
				if err := checkOperatorInKernel(r, op, typ); err != nil {
					t.Errorf("seed %d: %v", seed, err)
					return false
				}
			}
		}
		return true
	}, gen.UInt64()))
	props.TestingRun(t)
}

// checkOperatorInKernel runs out1[i] = op(a, y[i]) and out2[i] = op(x[i],
// c), with a = x[i] declared before, for the i with i%4 != 0, on 70
// random elements.
func checkOperatorInKernel(r *rand.Rand, op ir.BinOp, typ ir.Type) error {
	const n = 70
	o := op.Operation()
	rt := o.Result.Of(typ)
	x, y := global("x", typ, ir.Input), global("y", typ, ir.Input)
	out1, out2 := global("out1", rt, ir.Output), global("out2", rt, ir.Output)
	i, a := index("i"), &ir.Var{Name: "a", T: typ}
	c := ir.Value{T: typ, Bits: randomBits(r, typ)}
	active := &ir.Binary{Op: ir.Ne, X: bin(ir.And, i, u32(3)), Y: u32(0)}
	k := kernel(32, []*ir.Array{x, y, out1, out2}, nil, forAll(ir.GridThreads, i, &ir.Len{Array: x}, 1,
		decl(a, ld(x, i, 2), 2),
		&ir.If{Cond: active, Pos: at(3), Then: []ir.Stmt{
			st(out1, i, bin(op, a, ld(y, i, 4)), 4),
			st(out2, i, bin(op, ld(x, i, 5), &ir.Const{Value: c}), 5),
		}}))
	xb, yb, o1, o2 := NewBuffer(typ, n), NewBuffer(typ, n), NewBuffer(rt, n), NewBuffer(rt, n)
	want1, want2 := make([]ir.Value, n), make([]ir.Value, n)
	faults := false
	for j := range n {
		xv, yv := ir.Value{T: typ, Bits: randomBits(r, typ)}, ir.Value{T: typ, Bits: randomBits(r, typ)}
		xb.Set(j, xv)
		yb.Set(j, yv)
		want1[j], want2[j] = ir.Value{T: rt}, ir.Value{T: rt}
		if j%4 == 0 {
			continue
		}
		var f1, f2 ir.Fault
		want1[j], f1, _ = o.Apply(xv, yv)
		want2[j], f2, _ = o.Apply(xv, c)
		faults = faults || f1 != ir.NoFault || f2 != ir.NoFault
	}
	err := Launch(k, Config{Blocks: 2}, bufArgs(xb, yb, o1, o2))
	switch {
	case faults && err == nil:
		return fmt.Errorf("%v on %v: no error, but an active lane faults", op, typ)
	case faults:
		return nil
	case err != nil:
		return fmt.Errorf("%v on %v: %v", op, typ, err)
	}
	for j := range n {
		if g1, g2 := o1.Get(j), o2.Get(j); g1 != want1[j] || g2 != want2[j] {
			return fmt.Errorf("%v on %v, element %d (x %#x, y %#x, c %#x): got %v and %v, want %v and %v", op, typ, j,
				xb.Get(j).Bits, yb.Get(j).Bits, c.Bits, g1, g2, want1[j], want2[j])
		}
	}
	return nil
}

// TestShortCircuitSkipsDecidedLanes checks that && and || evaluate their
// second operand only on the lanes the first leaves undecided: there, a
// load out of bounds, which would be reported, is guarded by the first
// operand, and the results are C's.
func TestShortCircuitSkipsDecidedLanes(t *testing.T) {
	const n, threads = 40, 64
	x := global("x", ir.Uint32, ir.Input)
	and, or := global("and", ir.Bool, ir.Output), global("or", ir.Bool, ir.Output)
	i := index("i")
	inside := &ir.Binary{Op: ir.Lt, X: i, Y: &ir.Len{Array: x}}
	outside := &ir.Binary{Op: ir.Ge, X: i, Y: &ir.Len{Array: x}}
	set := &ir.Binary{Op: ir.Ne, X: ld(x, i, 2), Y: u32(0)}
	k := kernel(threads, []*ir.Array{x, and, or}, nil, forAll(ir.GridThreads, i, u32(threads), 1,
		st(and, i, bin(ir.And, inside, set), 2),
		st(or, i, bin(ir.Or, outside, set), 3)))
	xb, andb, orb := NewBuffer(ir.Uint32, n), NewBuffer(ir.Bool, threads), NewBuffer(ir.Bool, threads)
	for j := range n {
		xb.Set(j, valueOf(uint32(j%3)))
	}
	if err := Launch(k, Config{Blocks: 1}, bufArgs(xb, andb, orb)); err != nil {
		t.Fatal(err)
	}
	for j := range threads {
		wantAnd, wantOr := j < n && j%3 != 0, j >= n || j%3 != 0
		if andb.Get(j) != valueOf(wantAnd) || orb.Get(j) != valueOf(wantOr) {
			t.Errorf("element %d: && gives %v, || %v; want %v and %v", j, andb.Get(j), orb.Get(j), wantAnd, wantOr)
		}
	}
}
