package ir

import (
	"math"
	"strings"
	"testing"
)

// tables lists every operation of the three tables with its operator's
// name, for the checks that walk them all.
func tables() map[string]*Operation {
	all := map[string]*Operation{}
	for _, op := range UnOps() {
		all[op.String()] = op.Operation()
	}
	for _, op := range BinOps() {
		all[op.String()] = op.Operation()
	}
	for _, op := range TernOps() {
		all[op.String()] = op.Operation()
	}
	return all
}

// TestOperatorTableIsComplete checks every entry of the operator table: a
// name, a doc, the arity of its table, types, a result rule, and for every
// type it accepts a meaning (Func) and a CUDA spelling. A forgotten field
// fails here, not in a stage that would silently take a default.
func TestOperatorTableIsComplete(t *testing.T) {
	arity := map[string]int{}
	for _, op := range UnOps() {
		arity[op.String()] = 1
	}
	for _, op := range BinOps() {
		arity[op.String()] = 2
	}
	for _, op := range TernOps() {
		arity[op.String()] = 3
	}
	count := len(UnOps()) + len(BinOps()) + len(TernOps())
	all := tables()
	if len(all) != count {
		t.Errorf("%d operators but %d distinct names", count, len(all))
	}
	for name, o := range all {
		switch {
		case o == nil:
			t.Errorf("%s: no table entry", name)
			continue
		case o.Name == "" || strings.HasPrefix(name, "UnOp(") || strings.HasPrefix(name, "BinOp(") ||
			strings.HasPrefix(name, "TernOp("):
			t.Errorf("%s: no name", name)
		case o.Doc == "":
			t.Errorf("%s: no doc", name)
		case o.Arity != arity[name]:
			t.Errorf("%s: arity %d in the table of arity %d", name, o.Arity, arity[name])
		case o.Types == 0 || o.Types&^allTypes != 0 || o.Types&setWhere(Type.IsStorageFloat) != 0:
			t.Errorf("%s: types %b", name, o.Types)
		case o.cuda == nil:
			t.Errorf("%s: no CUDA spelling", name)
		}
		if o.Types&^o.sem.types() != 0 {
			t.Errorf("%s: accepts %v but has a meaning only for %v", name, o.Types, o.sem.types())
		}
		for _, typ := range o.Types.Types() {
			if r := o.Result.Of(typ); !r.Valid() {
				t.Errorf("%s on %v: result type %v", name, typ, r)
			}
			if _, ok := o.Func(typ); !ok {
				t.Errorf("%s on %v: no Func", name, typ)
			}
			sp, ok := o.CUDA(typ)
			switch {
			case !ok:
				t.Errorf("%s on %v: no spelling", name, typ)
			case (sp.Infix == "") == (sp.Call == ""):
				t.Errorf("%s on %v: spelled neither or both as an operator and a call: %+v", name, typ, sp)
			case sp.Infix != "" && o.Arity == 3:
				t.Errorf("%s on %v: a ternary operation spelled as an operator", name, typ)
			case sp.Lazy && typ != Bool:
				t.Errorf("%s on %v: lazy on a type other than bool", name, typ)
			case sp.Helper != "" && !strings.Contains(sp.Helper, sp.Call+"("):
				t.Errorf("%s on %v: helper does not define %s", name, typ, sp.Call)
			}
			if o.ULP(typ) != 0 && !o.Result.Of(typ).IsFloat() {
				t.Errorf("%s on %v: an error bound on a result that is not a float", name, typ)
			}
		}
		for _, typ := range append([]Type{NoType}, Types...) {
			if !o.Types.Has(typ) {
				if _, ok := o.Func(typ); ok {
					t.Errorf("%s: a Func for %v, which it does not accept", name, typ)
				}
				if _, ok := o.CUDA(typ); ok {
					t.Errorf("%s: a spelling for %v, which it does not accept", name, typ)
				}
			}
		}
	}
}

func TestUnknownOperators(t *testing.T) {
	if UnOp(0).Operation() != nil || UnOp(250).Operation() != nil || BinOp(0).Operation() != nil ||
		BinOp(250).Operation() != nil || TernOp(0).Operation() != nil || TernOp(250).Operation() != nil {
		t.Error("an unknown operator has a table entry")
	}
	if s := BinOp(250).String(); s != "BinOp(250)" {
		t.Errorf("BinOp(250).String() = %q", s)
	}
	if s := UnOp(0).String(); s != "UnOp(0)" {
		t.Errorf("UnOp(0).String() = %q", s)
	}
	if (&Unary{Op: 250, X: &Const{Value: IntValue(Int32, 1)}}).Type() != NoType {
		t.Error("an unknown unary operator gives a type")
	}
	if Add.String() != "Add" || Neg.String() != "Neg" || Ge.String() != "Ge" {
		t.Error("operators do not print their names")
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		o    *Operation
		ts   []Type
		want Type
		err  string
	}{
		{Add.Operation(), []Type{Int32, Int32}, Int32, ""},
		{Lt.Operation(), []Type{Float32, Float32}, Bool, ""},
		{Eq.Operation(), []Type{Bool, Bool}, Bool, ""},
		{Lt.Operation(), []Type{Bool, Bool}, NoType, "Lt on bool values; it takes int32"},
		{Add.Operation(), []Type{Int32, Uint32}, NoType, "Add: operands have different types, int32 and uint32"},
		{Shl.Operation(), []Type{Uint32, Int32}, NoType, "value and shift count have different types"},
		{Not.Operation(), []Type{Float64}, NoType, "Not on float64 values"},
		{Add.Operation(), []Type{Int32}, NoType, "Add takes 2 operands, not 1"},
	} {
		got, err := c.o.Check(c.ts...)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%s%v = %v, %v; want %v", c.o.Name, c.ts, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s%v: error %v, want %q", c.o.Name, c.ts, err, c.err)
		}
	}
}

// TestApply checks the semantics the table gives on values where C's rules
// are easy to get wrong; the evaluator's tests compare the rest with Go's
// arithmetic.
func TestApply(t *testing.T) {
	f32 := func(v float64) Value { return FloatValue(Float32, v) }
	i32 := func(v int64) Value { return IntValue(Int32, v) }
	negZero := FloatValue(Float64, math.Copysign(0, -1))
	for _, c := range []struct {
		name  string
		o     *Operation
		args  []Value
		want  Value
		fault Fault
	}{
		{"signed wrap", Add.Operation(), []Value{i32(math.MaxInt32), i32(1)}, i32(math.MinInt32), NoFault},
		{"truncating division", Div.Operation(), []Value{i32(-7), i32(2)}, i32(-3), NoFault},
		{"remainder sign", Rem.Operation(), []Value{i32(-7), i32(2)}, i32(-1), NoFault},
		{"division by zero", Div.Operation(), []Value{UintValue(Uint64, 1), UintValue(Uint64, 0)}, Value{}, DivideByZero},
		{"MIN / -1", Div.Operation(), []Value{i32(math.MinInt32), i32(-1)}, Value{}, DivideOverflow},
		{"shift by width", Shl.Operation(), []Value{i32(1), i32(32)}, Value{}, ShiftOutOfRange},
		{"negative shift", Shr.Operation(), []Value{i32(1), i32(-1)}, Value{}, ShiftOutOfRange},
		{"arithmetic shift", Shr.Operation(), []Value{i32(-8), i32(1)}, i32(-4), NoFault},
		{"fmin ignores NaN", Min.Operation(), []Value{f32(math.NaN()), f32(2)}, f32(2), NoFault},
		{"fmin of zeros", Min.Operation(), []Value{FloatValue(Float64, 0), negZero}, negZero, NoFault},
		{"unsigned min", Min.Operation(), []Value{UintValue(Uint32, 1<<31), UintValue(Uint32, 1)}, UintValue(Uint32, 1), NoFault},
		{"NaN is unordered", Ne.Operation(), []Value{f32(math.NaN()), f32(math.NaN())}, BoolValue(true), NoFault},
		{"NaN is not equal", Ge.Operation(), []Value{f32(math.NaN()), f32(1)}, BoolValue(false), NoFault},
		{"float32 rounds", Add.Operation(), []Value{f32(1), f32(1e-8)}, f32(1), NoFault},
		{"negation flips the sign of zero", Neg.Operation(), []Value{FloatValue(Float64, 0)}, negZero, NoFault},
		{"bool xor", Xor.Operation(), []Value{BoolValue(true), BoolValue(true)}, BoolValue(false), NoFault},
	} {
		got, fault, ok := c.o.Apply(c.args...)
		if !ok || fault != c.fault || (fault == NoFault && got != c.want) {
			t.Errorf("%s: %s%v = %v, %v, %v; want %v, %v", c.name, c.o.Name, c.args, got, fault, ok, c.want, c.fault)
		}
	}
	if _, _, ok := Add.Operation().Apply(BoolValue(true), BoolValue(true)); ok {
		t.Error("Add applies to bools")
	}
}

func TestFaultRules(t *testing.T) {
	div, shl := Div.Operation(), Shl.Operation()
	if !div.AlwaysFaults(Uint32, UintValue(Uint32, 0)) || div.AlwaysFaults(Int32, IntValue(Int32, -1)) ||
		div.SafeWith(Int32, IntValue(Int32, -1)) || !div.SafeWith(Int32, IntValue(Int32, 3)) {
		t.Error("division's fault rule")
	}
	if !shl.AlwaysFaults(Uint32, UintValue(Uint32, 32)) || !shl.AlwaysFaults(Int64, IntValue(Int64, -1)) ||
		!shl.SafeWith(Uint64, UintValue(Uint64, 63)) || shl.SafeWith(Uint64, UintValue(Uint64, 64)) {
		t.Error("shift's fault rule")
	}
	if div.AlwaysFaults(Float32, FloatValue(Float32, 0)) || !div.SafeWith(Float32, FloatValue(Float32, 0)) {
		t.Error("float division faults")
	}
}

func TestShuffleModeNames(t *testing.T) {
	if ShuffleIdx.String() != "Idx" || ShuffleXor.String() != "Xor" || ShuffleMode(9).String() != "ShuffleMode(9)" {
		t.Error("shuffle modes do not print their names")
	}
}
