package dsl_test

import (
	"reflect"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/half"
	"github.com/obsidian-go/obsidian/ir"
)

// operand returns dsl.Exp[T] for the type t, holding a variable, as a
// reflect.Value, and the variable.
func operand(t ir.Type, name string) (reflect.Value, *ir.Var) {
	v := &ir.Var{Name: name, T: t}
	switch t {
	case ir.Bool:
		return reflect.ValueOf(dsl.FromIR[bool](v)), v
	case ir.Int32:
		return reflect.ValueOf(dsl.FromIR[int32](v)), v
	case ir.Uint32:
		return reflect.ValueOf(dsl.FromIR[uint32](v)), v
	case ir.Int64:
		return reflect.ValueOf(dsl.FromIR[int64](v)), v
	case ir.Uint64:
		return reflect.ValueOf(dsl.FromIR[uint64](v)), v
	case ir.Float32:
		return reflect.ValueOf(dsl.FromIR[float32](v)), v
	case ir.Int8:
		return reflect.ValueOf(dsl.FromIR[int8](v)), v
	case ir.Uint8:
		return reflect.ValueOf(dsl.FromIR[uint8](v)), v
	case ir.Int16:
		return reflect.ValueOf(dsl.FromIR[int16](v)), v
	case ir.Uint16:
		return reflect.ValueOf(dsl.FromIR[uint16](v)), v
	case ir.Float16:
		return reflect.ValueOf(dsl.FromIR[half.Float16](v)), v
	case ir.BFloat16:
		return reflect.ValueOf(dsl.FromIR[half.BFloat16](v)), v
	}
	return reflect.ValueOf(dsl.FromIR[float64](v)), v
}

// functions are the dsl's free functions for operations that are not
// methods of Exp, per operand type.
var functions = map[string]map[ir.Type]any{
	"BytePerm":      {ir.Uint32: dsl.BytePerm},
	"FunnelShiftL":  {ir.Uint32: dsl.FunnelShiftL},
	"FunnelShiftR":  {ir.Uint32: dsl.FunnelShiftR},
	"FloatBits":     {ir.Float32: dsl.Float32Bits, ir.Float64: dsl.Float64Bits},
	"FloatFromBits": {ir.Uint32: dsl.Float32FromBits, ir.Uint64: dsl.Float64FromBits},
}

// TestEveryOperationIsInTheDSL walks the operator table: every operation
// has a dsl method named like it (or a function), which builds its IR node
// on every type the table accepts and an error on the others.
func TestEveryOperationIsInTheDSL(t *testing.T) {
	check := func(o *ir.Operation, node func(args []ir.Expr) ir.Expr) {
		for _, typ := range ir.Types {
			args := make([]reflect.Value, o.Arity)
			vars := make([]ir.Expr, o.Arity)
			for i := range args {
				var v *ir.Var
				args[i], v = operand(typ, string(rune('a'+i)))
				vars[i] = v
			}
			var fn reflect.Value
			if fs, ok := functions[o.Name]; ok {
				f, ok := fs[typ]
				if !ok {
					if o.Types.Has(typ) {
						t.Errorf("%s on %v: no dsl function", o.Name, typ)
					}
					continue
				}
				fn = reflect.ValueOf(f)
			} else {
				fn = args[0].MethodByName(o.Name)
				args = args[1:]
				if !fn.IsValid() {
					t.Errorf("%s: no dsl method Exp.%s", o.Name, o.Name)
					return
				}
			}
			out := fn.Call(args)
			got := out[0].MethodByName("IR").Call(nil)[0].Interface().(ir.Expr)
			want := node(vars)
			switch {
			case !o.Types.Has(typ):
				if _, ok := got.(*ir.Invalid); !ok {
					t.Errorf("%s on %v built %#v, want an error", o.Name, typ, got)
				}
			case !reflect.DeepEqual(got, want):
				t.Errorf("%s on %v built %#v, want %#v", o.Name, typ, got, want)
			}
		}
	}
	for _, op := range ir.UnOps() {
		check(op.Operation(), func(a []ir.Expr) ir.Expr { return &ir.Unary{Op: op, X: a[0]} })
	}
	for _, op := range ir.BinOps() {
		check(op.Operation(), func(a []ir.Expr) ir.Expr { return &ir.Binary{Op: op, X: a[0], Y: a[1]} })
	}
	for _, op := range ir.TernOps() {
		check(op.Operation(), func(a []ir.Expr) ir.Expr { return &ir.Ternary{Op: op, X: a[0], Y: a[1], Z: a[2]} })
	}
}
