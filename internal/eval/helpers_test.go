package eval

import (
	"math"
	"strings"
	"testing"

	"github.com/leanovate/gopter"

	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
)

// properties returns gopter properties with a logged, replayable seed
// (proptest.SeedVar) and 300 cases (more under -long).
func properties(t *testing.T) *gopter.Properties {
	return gopter.NewProperties(proptest.Parameters(t, 300))
}

// valueOf returns x as an IR value of the matching type.
func valueOf[T int32 | uint32 | int64 | uint64 | float32 | float64 | bool](x T) ir.Value {
	switch x := any(x).(type) {
	case int32:
		return ir.IntValue(ir.Int32, int64(x))
	case uint32:
		return ir.UintValue(ir.Uint32, uint64(x))
	case int64:
		return ir.IntValue(ir.Int64, x)
	case uint64:
		return ir.UintValue(ir.Uint64, x)
	case float32:
		return ir.Value{T: ir.Float32, Bits: uint64(math.Float32bits(x))}
	case float64:
		return ir.Value{T: ir.Float64, Bits: math.Float64bits(x)}
	case bool:
		return ir.BoolValue(x)
	}
	panic("unreachable")
}

func konst[T int32 | uint32 | int64 | uint64 | float32 | float64 | bool](x T) ir.Expr {
	return &ir.Const{Value: valueOf(x)}
}

// Builders of IR for the test kernels, positions at line numbers of a
// pretend user file.
func at(line int) ir.Pos                    { return ir.Pos{File: "user.go", Line: line} }
func u32(x uint32) ir.Expr                  { return konst(x) }
func bin(op ir.BinOp, x, y ir.Expr) ir.Expr { return &ir.Binary{Op: op, X: x, Y: y} }
func add(x, y ir.Expr) ir.Expr              { return bin(ir.Add, x, y) }
func mul(x, y ir.Expr) ir.Expr              { return bin(ir.Mul, x, y) }
func sub(x, y ir.Expr) ir.Expr              { return bin(ir.Sub, x, y) }
func ld(a *ir.Array, i ir.Expr, line int) ir.Expr {
	return &ir.Load{Array: a, Index: i, Pos: at(line)}
}
func st(a *ir.Array, i, v ir.Expr, line int) ir.Stmt {
	return &ir.Store{Array: a, Index: i, Value: v, Pos: at(line)}
}
func forAll(k ir.ForAllKind, v *ir.Var, count ir.Expr, line int, body ...ir.Stmt) ir.Stmt {
	return &ir.ForAll{Kind: k, Var: v, Count: count, Body: body, Pos: at(line)}
}
func sync(l ir.Level, line int) ir.Stmt { return &ir.Sync{Level: l, Pos: at(line)} }
func decl(v *ir.Var, e ir.Expr, line int) ir.Stmt {
	return &ir.Decl{Var: v, Init: e, Pos: at(line)}
}
func index(name string) *ir.Var        { return &ir.Var{Name: name, T: ir.Uint32} }
func special(k ir.SpecialKind) ir.Expr { return &ir.Special{Kind: k} }

func global(name string, t ir.Type, acc ir.Access) *ir.Array {
	return &ir.Array{Name: name, Elem: t, Space: ir.Global, Access: acc, Pos: at(1)}
}
func shared(name string, t ir.Type, size int) *ir.Array {
	return &ir.Array{Name: name, Elem: t, Space: ir.Shared, Access: ir.ReadWrite, Size: size, Pos: at(1)}
}

// kernel returns a kernel over array parameters.
func kernel(threads int, arrays []*ir.Array, sh []*ir.Array, body ...ir.Stmt) *ir.Kernel {
	k := &ir.Kernel{Name: "k", Threads: threads, Shared: sh, Body: body, Pos: at(1)}
	for _, a := range arrays {
		k.Params = append(k.Params, ir.Param{Array: a})
	}
	return k
}

// u32Buffer returns a buffer holding xs.
func u32Buffer(xs ...uint32) *Buffer {
	b := NewBuffer(ir.Uint32, len(xs))
	for i, x := range xs {
		b.Set(i, valueOf(x))
	}
	return b
}

func u32s(b *Buffer) []uint32 {
	xs := make([]uint32, b.Len())
	for i := range xs {
		xs[i] = uint32(b.Get(i).Bits)
	}
	return xs
}

func bufArgs(bs ...*Buffer) []Arg {
	args := make([]Arg, len(bs))
	for i, b := range bs {
		args[i] = Arg{Buffer: b}
	}
	return args
}

// wantError checks that err mentions each of the parts.
func wantError(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one mentioning %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Fatalf("error %q does not mention %q", err, p)
		}
	}
}
