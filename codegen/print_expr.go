package codegen

import (
	"fmt"
	"strings"

	"github.com/obsidian-go/obsidian/ir"
)

// C precedence levels, loosest first.
const (
	precLowest = iota
	precOrOr
	precAndAnd
	precBitOr
	precBitXor
	precBitAnd
	precEquality
	precRelational
	precShift
	precAdditive
	precMultiplicative
	precUnary
	precPrimary // names, constants, calls, indexing, anything in parentheses
)

// infixPrecedence is the C precedence of each binary operator the operator
// table spells.
var infixPrecedence = map[string]int{
	"||": precOrOr, "&&": precAndAnd, "|": precBitOr, "^": precBitXor, "&": precBitAnd,
	"==": precEquality, "!=": precEquality, "<": precRelational, "<=": precRelational, ">": precRelational,
	">=": precRelational, "<<": precShift, ">>": precShift, "+": precAdditive, "-": precAdditive,
	"*": precMultiplicative, "/": precMultiplicative, "%": precMultiplicative,
}

// saturatingConversion converts a float to an integer type as the
// evaluator does: truncated toward zero, saturated at the type's limits,
// NaN giving 0 (a C cast of an out-of-range value is undefined, and CUDA's
// saturating conversions give the most negative value for NaN). One helper
// per pair, built on CUDA's __float2int_rz family and clamped further for
// the 8- and 16-bit types.
var saturatingConversion = func() map[[2]ir.Type]conversionHelper {
	intrinsic := map[[2]ir.Type]string{
		{ir.Float32, ir.Int32}: "__float2int_rz", {ir.Float32, ir.Uint32}: "__float2uint_rz",
		{ir.Float32, ir.Int64}: "__float2ll_rz", {ir.Float32, ir.Uint64}: "__float2ull_rz",
		{ir.Float64, ir.Int32}: "__double2int_rz", {ir.Float64, ir.Uint32}: "__double2uint_rz",
		{ir.Float64, ir.Int64}: "__double2ll_rz", {ir.Float64, ir.Uint64}: "__double2ull_rz",
	}
	narrow := map[ir.Type][2]string{ // the 8- and 16-bit types' limits
		ir.Int8: {"-128", "127"}, ir.Uint8: {"0", "255"}, ir.Int16: {"-32768", "32767"}, ir.Uint16: {"0", "65535"},
	}
	helpers := map[[2]ir.Type]conversionHelper{}
	for _, from := range []ir.Type{ir.Float32, ir.Float64} {
		for _, to := range []ir.Type{ir.Int8, ir.Uint8, ir.Int16, ir.Uint16, ir.Int32, ir.Uint32, ir.Int64, ir.Uint64} {
			name := "__obs_" + from.String() + "_to_" + to.String()
			value := intrinsic[[2]ir.Type{from, to}] + "(x)"
			if lim, ok := narrow[to]; ok {
				value = "(" + to.C() + ")min(max(" + intrinsic[[2]ir.Type{from, ir.Int32}] + "(x), " + lim[0] + "), " + lim[1] + ")"
			}
			helpers[[2]ir.Type{from, to}] = conversionHelper{name, "static __device__ __forceinline__ " + to.C() + " " + name +
				"(" + from.C() + " x) { return x != x ? 0 : " + value + "; }"}
		}
	}
	return helpers
}()

// conversionHelper is a C function converting to or from a 16-bit float
// storage type, and its definition.
type conversionHelper struct{ name, definition string }

// storageConversion converts between float32 and the 16-bit float types,
// held as their bits in unsigned shorts, with the PTX conversions that
// round to nearest even (cvt.rn; bfloat16 needs sm_80).
var storageConversion = map[[2]ir.Type]conversionHelper{
	{ir.Float16, ir.Float32}: {"__obs_half2float", "static __device__ __forceinline__ float __obs_half2float(unsigned short h) " +
		"{ float f; asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h)); return f; }"},
	{ir.Float32, ir.Float16}: {"__obs_float2half", "static __device__ __forceinline__ unsigned short __obs_float2half(float f) " +
		"{ unsigned short h; asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h; }"},
	{ir.BFloat16, ir.Float32}: {"__obs_bfloat162float", "static __device__ __forceinline__ float __obs_bfloat162float(unsigned short h) " +
		"{ return __uint_as_float((unsigned int)h << 16); }"},
	{ir.Float32, ir.BFloat16}: {"__obs_float2bfloat16", "static __device__ __forceinline__ unsigned short __obs_float2bfloat16(float f) " +
		"{ unsigned short h; asm(\"cvt.rn.bf16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h; }"},
}

// expr prints e as a full expression.
func expr(e ir.Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

// writeExpr writes e as a full expression. The time it takes is linear in
// the size of e: every node is written once, and how it must be
// parenthesised is decided from its kind, not from its text.
func writeExpr(b *strings.Builder, e ir.Expr) {
	switch e := e.(type) {
	case *ir.Const:
		b.WriteString(cConst(e.Value))
	case *ir.Var:
		b.WriteString(e.Name)
	case *ir.Special:
		switch e.Kind {
		case ir.LaneIdx:
			b.WriteString("(threadIdx.x & 31u)")
		case ir.WarpIdx:
			b.WriteString("(threadIdx.x >> 5)")
		default:
			b.WriteString(e.Kind.String())
		}
	case *ir.Unary:
		writeOperation(b, e.Op.Operation(), e.X)
	case *ir.Binary:
		writeOperation(b, e.Op.Operation(), e.X, e.Y)
	case *ir.Ternary:
		writeOperation(b, e.Op.Operation(), e.X, e.Y, e.Z)
	case *ir.Select:
		b.WriteString("(")
		writeExpr(b, e.Cond)
		b.WriteString(" ? ")
		writeExpr(b, e.Then)
		b.WriteString(" : ")
		writeExpr(b, e.Else)
		b.WriteString(")")
	case *ir.Convert:
		if c, ok := storageConversion[[2]ir.Type{e.X.Type(), e.To}]; ok {
			b.WriteString(c.name + "(")
			writeExpr(b, e.X)
			b.WriteString(")")
			break
		}
		if c, ok := saturatingConversion[[2]ir.Type{e.X.Type(), e.To}]; ok {
			b.WriteString(c.name + "(")
			writeExpr(b, e.X)
			b.WriteString(")")
			break
		}
		b.WriteString("(" + e.To.C() + ")")
		writeOperand(b, e.X, precUnary, false)
	case *ir.Load:
		bits := bitTable(e.Array)
		if bits != nil {
			b.WriteString(bits.read + "(")
		}
		b.WriteString(e.Array.Name + "[")
		writeExpr(b, e.Index)
		b.WriteString("]")
		if bits != nil {
			b.WriteString(")")
		}
	case *ir.Len:
		if e.Array.FixedLen() {
			b.WriteString(cConst(ir.UintValue(ir.Uint32, uint64(e.Array.Size))))
		} else {
			b.WriteString(e.Array.Name + "_len")
		}
	case *ir.Invalid:
		b.WriteString("(invalid expression: " + e.Msg + ")")
	default:
		b.WriteString(fmt.Sprintf("(unknown expression %T)", e))
	}
}

// precedence returns the precedence of e as writeExpr prints it.
func precedence(e ir.Expr) int {
	switch e := e.(type) {
	case *ir.Const:
		if c := cConst(e.Value); strings.HasPrefix(c, "-") || strings.HasPrefix(c, "(") && !strings.HasSuffix(c, ")") {
			return precUnary // a negative number, or a cast
		}
	case *ir.Unary:
		return operationPrecedence(e.Op.Operation(), e.X)
	case *ir.Binary:
		return operationPrecedence(e.Op.Operation(), e.X)
	case *ir.Ternary:
		return operationPrecedence(e.Op.Operation(), e.X)
	case *ir.Convert:
		_, saturating := saturatingConversion[[2]ir.Type{e.X.Type(), e.To}]
		_, storage := storageConversion[[2]ir.Type{e.X.Type(), e.To}]
		if !saturating && !storage {
			return precUnary
		}
	}
	return precPrimary
}

// startsWithMinus reports whether e as printed begins with '-', which a
// reader could take for part of a preceding operator.
func startsWithMinus(e ir.Expr) bool {
	switch e := e.(type) {
	case *ir.Const:
		return strings.HasPrefix(cConst(e.Value), "-")
	case *ir.Unary:
		o := e.Op.Operation()
		if o == nil {
			return false
		}
		sp, ok := o.CUDA(e.X.Type())
		return ok && sp.Infix == "-" && !wraps(o, e.X.Type())
	}
	return false
}

// spelling returns how o prints on operands like x.
func spelling(o *ir.Operation, x ir.Expr) (ir.Spelling, bool) {
	if o == nil {
		return ir.Spelling{}, false
	}
	return o.CUDA(x.Type())
}

func operationPrecedence(o *ir.Operation, x ir.Expr) int {
	sp, ok := spelling(o, x)
	r := o.Result.Of(x.Type())
	switch {
	case !ok:
		return precPrimary
	case wraps(o, x.Type()) || r.IsInteger() && r.Size() < 4:
		return precUnary
	case sp.Infix == "":
		if sp.Returns != ir.NoType {
			return precUnary
		}
		return precPrimary
	case o.Arity == 1:
		return precUnary
	}
	return infixPrecedence[sp.Infix]
}

// writeOperation writes o applied to args.
func writeOperation(b *strings.Builder, o *ir.Operation, args ...ir.Expr) {
	sp, ok := spelling(o, args[0])
	if !ok {
		b.WriteString("(invalid operation)")
		return
	}
	t := args[0].Type()
	if r := o.Result.Of(t); r.IsInteger() && r.Size() < 4 && !wraps(o, t) {
		// C computes on the narrow types in int: convert back.
		b.WriteString("(" + r.C() + ")(")
		defer b.WriteString(")")
	}
	switch {
	case wraps(o, t):
		// Signed overflow is undefined in C; the IR wraps. Compute in the
		// unsigned type of the same width and convert back.
		b.WriteString(signedCast(t) + "(")
		writeUnsigned(b, o, sp, args)
		b.WriteString(")")
	case sp.Infix == "":
		if sp.Returns != ir.NoType {
			b.WriteString("(" + o.Result.Of(t).C() + ")")
		}
		b.WriteString(sp.Call + "(")
		for i, a := range args {
			if i > 0 {
				b.WriteString(", ")
			}
			if i == len(args)-1 && sp.SelectorMask != 0 {
				writeOperand(b, a, precBitAnd, false)
				b.WriteString(" & " + cConst(ir.UintValue(t, sp.SelectorMask)))
				continue
			}
			writeExpr(b, a)
		}
		b.WriteString(")")
	case len(args) == 1:
		b.WriteString(sp.Infix)
		writeOperand(b, args[0], precUnary, false)
	default:
		prec := infixPrecedence[sp.Infix]
		writeOperand(b, args[0], prec, false)
		b.WriteString(" " + sp.Infix + " ")
		writeOperand(b, args[1], prec, true)
	}
}

// operand prints e as an operand (see writeOperand).
func operand(e ir.Expr, prec int, right bool) string {
	var b strings.Builder
	writeOperand(&b, e, prec, right)
	return b.String()
}

// writeOperand writes e as an operand of an operator of precedence prec,
// parenthesised where C's rules would bind it otherwise or could surprise
// a reader: a right operand of equal precedence, a bitwise or shift operand
// that is another kind of operation, a comparison inside a comparison,
// && mixed with ||, and a leading minus.
func writeOperand(b *strings.Builder, e ir.Expr, prec int, right bool) {
	p := precedence(e)
	inner := p > precLowest && p < precUnary
	paren := p < prec || (right && p == prec) || startsWithMinus(e)
	switch {
	case prec >= precBitOr && prec <= precBitAnd || prec == precShift:
		paren = paren || (inner && p != prec)
	case prec == precEquality || prec == precRelational:
		paren = paren || p == precEquality || p == precRelational
	case prec == precOrOr || prec == precAndAnd:
		paren = paren || ((p == precOrOr || p == precAndAnd) && p != prec)
	}
	if paren {
		b.WriteString("(")
	}
	writeExpr(b, e)
	if paren {
		b.WriteString(")")
	}
}

// wraps reports whether o on type t can overflow, which C leaves undefined
// for signed types (and for the narrow types, which C computes in int) and
// the IR defines as wrapping around.
func wraps(o *ir.Operation, t ir.Type) bool {
	return o != nil && o.Wraps && (t.IsSigned() || t.IsInteger() && t.Size() < 4)
}

// writeUnsigned writes the wrapping operation o on signed operands in the
// unsigned type as wide, nested wrapping operations staying unsigned; a
// shift count keeps its value.
func writeUnsigned(b *strings.Builder, o *ir.Operation, sp ir.Spelling, args []ir.Expr) {
	if len(args) == 1 {
		b.WriteString(sp.Infix)
		writeUnsignedTerm(b, args[0])
		return
	}
	writeUnsignedTerm(b, args[0])
	b.WriteString(" " + sp.Infix + " ")
	if o.Faults == ir.CountFault {
		writeOperand(b, args[1], precShift, true)
		return
	}
	writeUnsignedTerm(b, args[1])
}

// writeUnsignedTerm writes the signed e as a value of the unsigned type as
// wide.
func writeUnsignedTerm(b *strings.Builder, e ir.Expr) {
	var o *ir.Operation
	var args []ir.Expr
	switch e := e.(type) {
	case *ir.Unary:
		o, args = e.Op.Operation(), []ir.Expr{e.X}
	case *ir.Binary:
		o, args = e.Op.Operation(), []ir.Expr{e.X, e.Y}
	}
	if o != nil && wraps(o, args[0].Type()) {
		if sp, ok := o.CUDA(args[0].Type()); ok {
			b.WriteString("(")
			writeUnsigned(b, o, sp, args)
			b.WriteString(")")
			return
		}
	}
	b.WriteString("(" + unsignedOf(e.Type()) + ")")
	writeOperand(b, e, precUnary, false)
}

// unsignedOf returns the C name of the unsigned type wrapping arithmetic on
// t is done in: as wide as t, and at least unsigned int (C computes on
// narrower types in int, where products overflow).
func unsignedOf(t ir.Type) string {
	if t.Size() < 4 {
		return "unsigned int"
	}
	return ir.UnsignedOf(t).C()
}

// signedCast returns the cast that converts unsigned arithmetic back to the
// signed type t (modulo 2^bits, as CUDA defines the conversion).
func signedCast(t ir.Type) string { return "(" + t.C() + ")" }
