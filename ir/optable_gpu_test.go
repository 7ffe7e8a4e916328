package ir_test

import (
	"fmt"
	"math"
	"math/rand"
	"sync"
	"testing"

	"github.com/obsidian-go/obsidian/half"
	"github.com/obsidian-go/obsidian/internal/irgen"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

var (
	gpuOnce sync.Once
	gpu     *runtime.GPU
	gpuErr  error
)

// gpuForTest returns the first GPU, or skips the test saying why there is
// none.
func gpuForTest(t *testing.T) *runtime.GPU {
	t.Helper()
	gpuOnce.Do(func() { gpu, gpuErr = runtime.Open(0) })
	if gpuErr != nil {
		t.Skip(gpuErr.Error())
	}
	return gpu
}

// gpuElements is the number of random operand tuples per operation and
// type.
const gpuElements = 1 << 14

// elementwise returns a kernel computing out[i] = f(in0[i], in1[i], ...)
// over arity input arrays of type t.
func elementwise(name string, t, result ir.Type, arity int, f func(args []ir.Expr) ir.Expr) *ir.Kernel {
	k := &ir.Kernel{Name: name, Threads: 256, Blocks: &ir.Const{Value: ir.UintValue(ir.Uint32, 64)}}
	i := &ir.Var{Name: "i", T: ir.Uint32}
	args := make([]ir.Expr, arity)
	for n := range args {
		a := &ir.Array{Name: fmt.Sprintf("in%d", n), Elem: t, Space: ir.Global, Access: ir.Input}
		k.Params = append(k.Params, ir.Param{Array: a})
		args[n] = &ir.Load{Array: a, Index: i}
	}
	out := &ir.Array{Name: "out", Elem: result, Space: ir.Global, Access: ir.Output}
	k.Params = append(k.Params, ir.Param{Array: out})
	k.Body = []ir.Stmt{&ir.ForAll{Kind: ir.GridThreads, Var: i, Count: &ir.Len{Array: out},
		Body: []ir.Stmt{&ir.Store{Array: out, Index: i, Value: f(args)}}}}
	return k
}

// buffer copies values of type t to a new buffer on dev.
func buffer(t *testing.T, dev runtime.Device, typ ir.Type, vs []ir.Value) any {
	t.Helper()
	var b any
	var err error
	switch typ {
	case ir.Bool:
		b, err = runtime.FromSlice(dev, convert(vs, func(v ir.Value) bool { return v.Bool() }))
	case ir.Int32:
		b, err = runtime.FromSlice(dev, convert(vs, func(v ir.Value) int32 { return int32(v.Int()) }))
	case ir.Uint32:
		b, err = runtime.FromSlice(dev, convert(vs, func(v ir.Value) uint32 { return uint32(v.Bits) }))
	case ir.Int64:
		b, err = runtime.FromSlice(dev, convert(vs, func(v ir.Value) int64 { return v.Int() }))
	case ir.Uint64:
		b, err = runtime.FromSlice(dev, convert(vs, func(v ir.Value) uint64 { return v.Bits }))
	case ir.Float32:
		b, err = runtime.FromSlice(dev, convert(vs, func(v ir.Value) float32 { return math.Float32frombits(uint32(v.Bits)) }))
	case ir.Float64:
		b, err = runtime.FromSlice(dev, convert(vs, func(v ir.Value) float64 { return math.Float64frombits(v.Bits) }))
	case ir.Int8:
		b, err = runtime.FromSlice(dev, convert(vs, func(v ir.Value) int8 { return int8(v.Int()) }))
	case ir.Uint8:
		b, err = runtime.FromSlice(dev, convert(vs, func(v ir.Value) uint8 { return uint8(v.Bits) }))
	case ir.Int16:
		b, err = runtime.FromSlice(dev, convert(vs, func(v ir.Value) int16 { return int16(v.Int()) }))
	case ir.Uint16:
		b, err = runtime.FromSlice(dev, convert(vs, func(v ir.Value) uint16 { return uint16(v.Bits) }))
	case ir.Float16:
		b, err = runtime.FromSlice(dev, convert(vs, func(v ir.Value) half.Float16 { return half.Float16(v.Bits) }))
	case ir.BFloat16:
		b, err = runtime.FromSlice(dev, convert(vs, func(v ir.Value) half.BFloat16 { return half.BFloat16(v.Bits) }))
	default:
		t.Fatalf("no buffer of %v", typ)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func convert[T any](vs []ir.Value, f func(ir.Value) T) []T {
	out := make([]T, len(vs))
	for i, v := range vs {
		out[i] = f(v)
	}
	return out
}

// values reads the buffer b of type t back as IR values.
func values(t *testing.T, typ ir.Type, b any) []ir.Value {
	t.Helper()
	var out []ir.Value
	read := func(n int, get func(i int) ir.Value) {
		for i := range n {
			out = append(out, get(i))
		}
	}
	var err error
	switch b := b.(type) {
	case *runtime.Buffer[bool]:
		var s []bool
		s, err = b.ToSlice()
		read(len(s), func(i int) ir.Value { return ir.BoolValue(s[i]) })
	case *runtime.Buffer[int32]:
		var s []int32
		s, err = b.ToSlice()
		read(len(s), func(i int) ir.Value { return ir.IntValue(ir.Int32, int64(s[i])) })
	case *runtime.Buffer[uint32]:
		var s []uint32
		s, err = b.ToSlice()
		read(len(s), func(i int) ir.Value { return ir.UintValue(ir.Uint32, uint64(s[i])) })
	case *runtime.Buffer[int64]:
		var s []int64
		s, err = b.ToSlice()
		read(len(s), func(i int) ir.Value { return ir.IntValue(ir.Int64, s[i]) })
	case *runtime.Buffer[uint64]:
		var s []uint64
		s, err = b.ToSlice()
		read(len(s), func(i int) ir.Value { return ir.UintValue(ir.Uint64, s[i]) })
	case *runtime.Buffer[float32]:
		var s []float32
		s, err = b.ToSlice()
		read(len(s), func(i int) ir.Value { return ir.Value{T: ir.Float32, Bits: uint64(math.Float32bits(s[i]))} })
	case *runtime.Buffer[float64]:
		var s []float64
		s, err = b.ToSlice()
		read(len(s), func(i int) ir.Value { return ir.Value{T: ir.Float64, Bits: math.Float64bits(s[i])} })
	case *runtime.Buffer[int8]:
		var s []int8
		s, err = b.ToSlice()
		read(len(s), func(i int) ir.Value { return ir.IntValue(ir.Int8, int64(s[i])) })
	case *runtime.Buffer[uint8]:
		var s []uint8
		s, err = b.ToSlice()
		read(len(s), func(i int) ir.Value { return ir.UintValue(ir.Uint8, uint64(s[i])) })
	case *runtime.Buffer[int16]:
		var s []int16
		s, err = b.ToSlice()
		read(len(s), func(i int) ir.Value { return ir.IntValue(ir.Int16, int64(s[i])) })
	case *runtime.Buffer[uint16]:
		var s []uint16
		s, err = b.ToSlice()
		read(len(s), func(i int) ir.Value { return ir.UintValue(ir.Uint16, uint64(s[i])) })
	case *runtime.Buffer[half.Float16]:
		var s []half.Float16
		s, err = b.ToSlice()
		read(len(s), func(i int) ir.Value { return ir.Value{T: ir.Float16, Bits: uint64(s[i])} })
	case *runtime.Buffer[half.BFloat16]:
		var s []half.BFloat16
		s, err = b.ToSlice()
		read(len(s), func(i int) ir.Value { return ir.Value{T: ir.BFloat16, Bits: uint64(s[i])} })
	default:
		t.Fatalf("buffer of %T", b)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// run launches k on dev with the operand columns and returns the output.
func run(t *testing.T, dev runtime.Device, k *ir.Kernel, operand ir.Type, cols [][]ir.Value, result ir.Type) []ir.Value {
	t.Helper()
	fn, err := dev.Load(k)
	if err != nil {
		t.Fatalf("%s: %v", k.Name, err)
	}
	var args []any
	for _, c := range cols {
		args = append(args, buffer(t, dev, operand, c))
	}
	out := buffer(t, dev, result, make([]ir.Value, len(cols[0])))
	args = append(args, out)
	if err := dev.Launch(fn, runtime.LaunchConfig{}, args...); err != nil {
		t.Fatalf("%s: %v", k.Name, err)
	}
	return values(t, result, out)
}

// ulps returns the distance between two floats of type t in units in the
// last place: the number of representable values between them, 0 for two
// NaNs (whatever their bits), and the largest distance for a NaN and a
// number.
func ulps(t ir.Type, a, b ir.Value) uint64 {
	na, nb := math.IsNaN(a.Float()), math.IsNaN(b.Float())
	switch {
	case na && nb:
		return 0
	case na || nb:
		return math.MaxUint64
	}
	ordered := func(v ir.Value) int64 {
		if t.IsStorageFloat() {
			i := int64(int16(uint16(v.Bits)))
			if i < 0 {
				i = math.MinInt16 - i
			}
			return i
		}
		if t == ir.Float32 {
			i := int64(int32(uint32(v.Bits)))
			if i < 0 {
				i = math.MinInt32 - i
			}
			return i
		}
		i := int64(v.Bits)
		if i < 0 {
			i = math.MinInt64 - i
		}
		return i
	}
	d := ordered(a) - ordered(b)
	if d < 0 {
		d = -d
	}
	return uint64(d)
}

// operands draws arity columns of random values of type t (edge values a
// third of the time: both zeros, subnormals, infinities, NaNs, extreme
// integers), changing those on which o faults (a zero divisor, a shift
// count out of range), whose result the GPU leaves undefined.
func operands(rng *rand.Rand, o *ir.Operation, t ir.Type, arity int) [][]ir.Value {
	cols := make([][]ir.Value, arity)
	for i := range gpuElements {
		row := make([]ir.Value, arity)
		for {
			for a := range row {
				row[a] = irgen.Value(rng, t)
			}
			if o == nil {
				break
			}
			if _, fault, _ := o.Apply(row...); fault == ir.NoFault {
				break
			}
		}
		for a := range row {
			cols[a] = append(cols[a], row[a])
		}
		_ = i
	}
	return cols
}

// TestGPUOperatorTable runs every operation of the operator table on every
// type it accepts on the GPU and in the evaluator (runtime.CPU) on fresh
// random operands, and compares them element by element: bit for bit for
// integer and bool results and correctly rounded operations, within CUDA's
// documented largest error (ir.Operation.ULP) plus one ulp for the
// evaluator's own rounding (its functions are within one ulp of the
// correctly rounded result) for the others. It logs the largest difference
// seen per operation.
func TestGPUOperatorTable(t *testing.T) {
	g := gpuForTest(t)
	rng := proptest.Parameters(t, 1).Rng
	check := func(o *ir.Operation, typ ir.Type, build func(args []ir.Expr) ir.Expr) {
		result := o.Result.Of(typ)
		k := elementwise(fmt.Sprintf("op_%s_%v", o.Name, typ), typ, result, o.Arity, build)
		cols := operands(rng, o, typ, o.Arity)
		onGPU := run(t, g, k, typ, cols, result)
		onCPU := run(t, runtime.CPU(), k, typ, cols, result)
		var worst uint64
		bad := 0
		for i := range onGPU {
			a, b := onGPU[i], onCPU[i]
			d := uint64(0)
			switch {
			case result.IsFloat():
				d = ulps(result, a, b)
			case a != b:
				d = math.MaxUint64
			}
			worst = max(worst, d)
			if d > uint64(o.ULP(typ))+boolToInt(!o.Exact(typ)) && bad < 5 {
				bad++
				args := make([]ir.Value, o.Arity)
				for n := range args {
					args[n] = cols[n][i]
				}
				t.Errorf("%s%v: GPU %v (%#x), evaluator %v (%#x): %d ulps, documented %d", o.Name, args, a, a.Bits, b,
					b.Bits, d, o.ULP(typ))
			}
		}
		if result.IsFloat() {
			t.Logf("%s on %v: largest difference %d ulp (CUDA documents %d)", o.Name, typ, worst, o.ULP(typ))
		}
	}
	for _, op := range ir.UnOps() {
		for _, typ := range op.Operation().Types.Types() {
			check(op.Operation(), typ, func(a []ir.Expr) ir.Expr { return &ir.Unary{Op: op, X: a[0]} })
		}
	}
	for _, op := range ir.BinOps() {
		for _, typ := range op.Operation().Types.Types() {
			check(op.Operation(), typ, func(a []ir.Expr) ir.Expr { return &ir.Binary{Op: op, X: a[0], Y: a[1]} })
		}
	}
	for _, op := range ir.TernOps() {
		for _, typ := range op.Operation().Types.Types() {
			check(op.Operation(), typ, func(a []ir.Expr) ir.Expr { return &ir.Ternary{Op: op, X: a[0], Y: a[1], Z: a[2]} })
		}
	}
}

// TestGPUConversions converts random values between every pair of types
// that convert (the narrow integers included; float16 and bfloat16 to and
// from float32) on the GPU and in the evaluator, which must agree bit for
// bit (float to integer conversions truncate and saturate, NaN giving 0;
// conversions to 16-bit floats round to nearest even), any NaN equal to any
// other.
func TestGPUConversions(t *testing.T) {
	g := gpuForTest(t)
	rng := proptest.Parameters(t, 1).Rng
	for _, from := range ir.Types {
		for _, to := range ir.Types {
			if !ir.ConversionDefined(from, to) {
				continue
			}
			k := elementwise(fmt.Sprintf("convert_%v_%v", from, to), from, to, 1,
				func(a []ir.Expr) ir.Expr { return &ir.Convert{To: to, X: a[0]} })
			cols := operands(rng, nil, from, 1)
			onGPU, onCPU := run(t, g, k, from, cols, to), run(t, runtime.CPU(), k, from, cols, to)
			bad := 0
			for i := range onGPU {
				if a, b := onGPU[i], onCPU[i]; a != b && !((to.IsFloat() || to.IsStorageFloat()) && ulps(to, a, b) == 0) &&
					bad < 5 {
					bad++
					t.Errorf("%v(%v): GPU %v, evaluator %v", to, cols[0][i], a, b)
				}
			}
		}
	}
}

func boolToInt(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
