package codegen

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/ir"
)

// tableValues returns values of type t for a constant table: zero, one,
// the extremes of the type and, for floats, a negative zero, a fraction
// and the infinities.
func tableValues(t ir.Type) []ir.Value {
	switch {
	case t == ir.Bool:
		return []ir.Value{ir.BoolValue(false), ir.BoolValue(true)}
	case t.IsStorageFloat():
		return []ir.Value{{T: t, Bits: 0}, {T: t, Bits: 0x3c00}, {T: t, Bits: 0x7c00}, {T: t, Bits: 0xfc00}}
	case t.IsFloat():
		return []ir.Value{ir.FloatValue(t, 0), ir.FloatValue(t, math.Copysign(0, -1)), ir.FloatValue(t, 0.1),
			ir.FloatValue(t, -1e30), ir.FloatValue(t, math.Inf(1)), ir.FloatValue(t, math.Inf(-1)),
			ir.FloatValue(t, 5e-324)}
	case t.IsSigned():
		return []ir.Value{ir.IntValue(t, 0), ir.IntValue(t, 1), ir.IntValue(t, -1),
			ir.IntValue(t, -1<<(t.Bits()-1)), ir.IntValue(t, 1<<(t.Bits()-1)-1)}
	}
	return []ir.Value{ir.UintValue(t, 0), ir.UintValue(t, 1), ir.UintValue(t, math.MaxUint64)}
}

// constTable returns a constant table of the given values.
func constTable(name string, t ir.Type, values []ir.Value, line int) *ir.Array {
	return &ir.Array{Name: name, Elem: t, Space: ir.Constant, Access: ir.Input, Size: len(values), Values: values,
		Pos: at(line)}
}

// tableKernel reads a constant table of elements of type t at indices
// loaded from in (within the table) and at a constant index.
func tableKernel(t ir.Type) *ir.Kernel {
	values := tableValues(t)
	tab := constTable("tab", t, values, 4)
	in, out, first := global("in", ir.Uint32, ir.Input, 2), global("out", t, ir.Output, 3), global("first", t, ir.Output, 5)
	i := v("i", ir.Uint32)
	k := kernel("table_"+t.String(), []*ir.Array{in, out, first}, nil,
		forAll(ir.GridThreads, i, &ir.Len{Array: in}, 10,
			store(out, i, load(tab, bin(ir.Rem, load(in, i, 11), &ir.Len{Array: tab}), 11), 11),
			store(first, i, load(tab, u32(1), 12), 12)))
	k.Constants = []*ir.Array{tab}
	return k
}

// TestConstTablePrintedExactly checks the __constant__ definition of a
// table of every type, and that a read at a constant index prints as the
// element itself.
func TestConstTablePrintedExactly(t *testing.T) {
	for _, typ := range ir.Types {
		src, _ := mustCUDA(t, tableKernel(typ))
		values := tableValues(typ)
		elems := make([]string, len(values))
		elem, read := typ.C(), "out[i] = tab[in[i] "
		for i, x := range values {
			elems[i] = cConst(x)
		}
		// Floats with an infinity are held as their bits (a file-scope
		// initializer has no spelling of an infinity NVRTC takes).
		switch typ {
		case ir.Float32:
			elem, read = "unsigned int", "out[i] = __int_as_float(tab[in[i] "
			for i, x := range values {
				elems[i] = fmt.Sprintf("0x%08xu", x.Bits)
			}
		case ir.Float64:
			elem, read = "unsigned long long", "out[i] = __longlong_as_double(tab[in[i] "
			for i, x := range values {
				elems[i] = fmt.Sprintf("0x%016xull", x.Bits)
			}
		}
		contains(t, src, "__constant__ "+elem+" tab["+itoa(len(values))+"] = {"+strings.Join(elems, ", ")+"};",
			"first[i] = "+cConst(values[1])+";", read)
		if strings.Contains(src, "tab_len") {
			t.Errorf("%v: the table is passed as a parameter:\n%s", typ, src)
		}
	}
	src, _ := mustCUDA(t, tableKernel(ir.Float64))
	contains(t, src, "0x7ff0000000000000ull, 0xfff0000000000000ull, 0x0000000000000001ull}")
}

func itoa(n int) string { return cConst(ir.IntValue(ir.Int32, int64(n))) }

// TestConstTableRowsOfEight checks that a long table prints eight
// elements to a line.
func TestConstTableRowsOfEight(t *testing.T) {
	values := make([]ir.Value, 17)
	for i := range values {
		values[i] = ir.UintValue(ir.Uint32, uint64(i))
	}
	k := tableKernel(ir.Uint32)
	k.Constants[0].Values, k.Constants[0].Size = values, len(values)
	src, _ := mustCUDA(t, k)
	contains(t, src, "__constant__ unsigned int tab[17] = {\n  0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u,\n"+
		"  8u, 9u, 10u, 11u, 12u, 13u, 14u, 15u,\n  16u,\n};\n")
}

// TestConstTableReadAcrossBarrier checks that CSE takes a constant
// table's element read before a barrier for the same read after it,
// where it reads a shared array's again.
func TestConstTableReadAcrossBarrier(t *testing.T) {
	tab := constTable("tab", ir.Uint32, tableValues(ir.Uint32), 4)
	in, out := global("in", ir.Uint32, ir.Input, 2), global("out", ir.Uint32, ir.Output, 3)
	sh := shared("sh", ir.Uint32, 256, 5)
	i, j, x, blk := v("i", ir.Uint32), v("j", ir.Uint32), v("x", ir.Uint32), v("blk", ir.Uint32)
	read := func() ir.Expr { return load(tab, bin(ir.Rem, blk, u32(3)), 20) }
	k := kernel("tableBarrier", []*ir.Array{in, out}, []*ir.Array{sh},
		forAll(ir.GridBlocks, blk, u32(4), 10,
			decl(x, bin(ir.Mul, read(), u32(3)), 11),
			forAll(ir.BlockThreads, i, u32(256), 12, store(sh, i, bin(ir.Add, x, read()), 12)),
			sync(13),
			forAll(ir.BlockThreads, j, u32(256), 14, store(out, j, bin(ir.Add, load(sh, j, 14), read()), 14))))
	k.Constants = []*ir.Array{tab}
	src, _ := mustCUDA(t, k)
	if n := strings.Count(src, "tab[blk"); n != 1 {
		t.Errorf("the table is read %d times, want once (its reads are the same on both sides of the barrier):\n%s", n, src)
	}
}

// TestConstTableDeepCopy checks that a copied kernel's table holds its
// own values.
func TestConstTableDeepCopy(t *testing.T) {
	k := tableKernel(ir.Int32)
	c := deepCopy(k)
	if c.Constants[0] == k.Constants[0] {
		t.Fatal("the copy shares the table")
	}
	c.Constants[0].Values[0] = ir.IntValue(ir.Int32, 99)
	if k.Constants[0].Values[0].Int() != 0 {
		t.Error("the copy shares the table's values")
	}
	if load := c.Body[0].(*ir.ForAll).Body[0].(*ir.Store).Value.(*ir.Load); load.Array != c.Constants[0] {
		t.Error("a read of the copy's table is of the original table")
	}
}

// TestVerifyConstTables checks what Verify says about constant tables
// that are wrong, each at the table's or the statement's line.
func TestVerifyConstTables(t *testing.T) {
	three := tableValues(ir.Uint32)
	nan := []ir.Value{ir.FloatValue(ir.Float32, 1), ir.FloatValue(ir.Float32, math.NaN())}
	cases := []struct {
		name string
		edit func(k *ir.Kernel, tab *ir.Array)
		line int
		want string
	}{
		{"store", func(k *ir.Kernel, tab *ir.Array) {
			f := k.Body[0].(*ir.ForAll)
			f.Body = append(f.Body, store(tab, u32(0), u32(1), 30))
		}, 30, "store to constant table tab: constant tables are read-only"},
		{"atomic", func(k *ir.Kernel, tab *ir.Array) {
			f := k.Body[0].(*ir.ForAll)
			f.Body = append(f.Body, &ir.Atomic{Op: ir.AtomicAdd, Array: tab, Index: u32(0), Value: u32(1), Pos: at(31)})
		}, 31, "atomic Add to constant table tab: constant tables are read-only"},
		{"values not its size", func(k *ir.Kernel, tab *ir.Array) { tab.Size = 5 }, 4,
			"constant table tab has 5 elements but 3 values"},
		{"empty", func(k *ir.Kernel, tab *ir.Array) { tab.Size, tab.Values = 0, nil }, 4,
			"constant table tab has 0 elements; it needs at least one"},
		{"not in constant memory", func(k *ir.Kernel, tab *ir.Array) { tab.Space = ir.Global }, 4,
			"array tab is listed as a constant table but is in global memory"},
		{"writable", func(k *ir.Kernel, tab *ir.Array) { tab.Access = ir.ReadWrite }, 4,
			"constant table tab is read-write; constant tables are read-only"},
		{"value of another type", func(k *ir.Kernel, tab *ir.Array) { tab.Values[2] = ir.IntValue(ir.Int32, -1) }, 4,
			"element 2 of constant table tab, a table of uint32, is -1 of type int32"},
		{"NaN", func(k *ir.Kernel, tab *ir.Array) { tab.Elem, tab.Values, tab.Size = ir.Float32, nan, 2 }, 4,
			"element 1 of constant table tab is a NaN"},
		{"named like a parameter", func(k *ir.Kernel, tab *ir.Array) { tab.Name = "in" }, 4,
			"constant table in has the name in of array parameter in"},
		{"named like a CUDA built-in", func(k *ir.Kernel, tab *ir.Array) { tab.Name = "blockDim" }, 4,
			"constant table blockDim: "},
		{"past constant memory", func(k *ir.Kernel, tab *ir.Array) {
			big := make([]ir.Value, 16<<10)
			for i := range big {
				big[i] = ir.UintValue(ir.Uint32, uint64(i))
			}
			k.Constants = append([]*ir.Array{constTable("big", ir.Uint32, big, 40)}, k.Constants...)
		}, 4, "constant table tab of 12 bytes makes kernel table_uint32's constant tables 65548 bytes; constant memory holds 65536"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := tableKernel(ir.Uint32)
			k.Constants[0].Values = slices.Clone(three)
			c.edit(k, k.Constants[0])
			for _, e := range verifyErrors(k) {
				if e.Pos.Line == c.line && strings.Contains(e.Msg, c.want) {
					return
				}
			}
			t.Errorf("Verify does not say %q at line %d: %v", c.want, c.line, Verify(k, DefaultTarget))
		})
	}
}

// spaceKernel returns a kernel that copies in to out through an array of
// the given space, and says whether there is one: every space must have
// one, so that a space added to ir.Spaces is tested at every stage.
func spaceKernel(space ir.Space) (*ir.Kernel, bool) {
	in, out := global("in", ir.Uint32, ir.Input, 2), global("out", ir.Uint32, ir.Output, 3)
	i, blk := v("i", ir.Uint32), v("blk", ir.Uint32)
	switch space {
	case ir.Global:
		return kernel("viaGlobal", []*ir.Array{in, out}, nil,
			forAll(ir.GridThreads, i, &ir.Len{Array: out}, 10, store(out, i, load(in, i, 10), 10))), true
	case ir.Shared:
		sh := shared("sh", ir.Uint32, 256, 4)
		j := v("j", ir.Uint32)
		return kernel("viaShared", []*ir.Array{in, out}, []*ir.Array{sh},
			forAll(ir.GridBlocks, blk, u32(1), 10,
				forAll(ir.BlockThreads, i, u32(256), 11, store(sh, i, load(in, i, 11), 11)),
				sync(12),
				forAll(ir.BlockThreads, j, u32(256), 13, store(out, j, load(sh, j, 13), 13)))), true
	case ir.Local:
		loc := &ir.Array{Name: "loc", Elem: ir.Uint32, Space: ir.Local, Access: ir.ReadWrite, Size: 1, Pos: at(4)}
		k := kernel("viaLocal", []*ir.Array{in, out}, nil,
			forAll(ir.GridThreads, i, &ir.Len{Array: out}, 10,
				store(loc, u32(0), load(in, i, 10), 10), store(out, i, load(loc, u32(0), 11), 11)))
		k.Locals = []*ir.Array{loc}
		return k, true
	case ir.Constant:
		values := make([]ir.Value, 256)
		for x := range values {
			values[x] = ir.UintValue(ir.Uint32, uint64(x))
		}
		tab := constTable("tab", ir.Uint32, values, 4)
		k := kernel("viaConstant", []*ir.Array{in, out}, nil,
			forAll(ir.GridThreads, i, &ir.Len{Array: out}, 10,
				store(out, i, load(tab, bin(ir.And, load(in, i, 10), u32(255)), 10), 10)))
		k.Constants = []*ir.Array{tab}
		return k, true
	}
	return nil, false
}

// TestEverySpace copies 256 elements through an array of every memory
// space: it verifies, prints, and runs in the evaluator with the right
// result. A space without a kernel in spaceKernel fails it.
func TestEverySpace(t *testing.T) {
	for _, space := range ir.Spaces {
		k, ok := spaceKernel(space)
		if !ok {
			t.Errorf("no kernel copies through %v memory: every stage must handle it", space)
			continue
		}
		src, compiled := mustCUDA(t, k)
		if strings.Contains(src, "unknown") || strings.Contains(src, "invalid") {
			t.Errorf("%v: the printer does not know something:\n%s", space, src)
		}
		in, out := eval.NewBuffer(ir.Uint32, 256), eval.NewBuffer(ir.Uint32, 256)
		for x := range 256 {
			in.Set(x, ir.UintValue(ir.Uint32, uint64(255-x)))
		}
		if err := eval.Launch(compiled, eval.Config{Blocks: 1}, []eval.Arg{{Buffer: in}, {Buffer: out}}); err != nil {
			t.Errorf("%v: %v", space, err)
			continue
		}
		for x := range 256 {
			if got := out.Get(x).Uint(); got != uint64(255-x) {
				t.Errorf("%v: out[%d] = %d, want %d", space, x, got, 255-x)
				break
			}
		}
	}
}
