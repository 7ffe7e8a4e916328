package codegen

import (
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

// operator is how a binary operator prints: infix symbol and precedence,
// or a function name.
type operator struct {
	symbol string
	prec   int
	call   string
}

func binaryOperator(op ir.BinOp, t ir.Type) operator {
	switch op {
	case ir.Add:
		return operator{symbol: "+", prec: precAdditive}
	case ir.Sub:
		return operator{symbol: "-", prec: precAdditive}
	case ir.Mul:
		return operator{symbol: "*", prec: precMultiplicative}
	case ir.Div:
		return operator{symbol: "/", prec: precMultiplicative}
	case ir.Rem:
		switch t {
		case ir.Float32:
			return operator{call: "fmodf"}
		case ir.Float64:
			return operator{call: "fmod"}
		}
		return operator{symbol: "%", prec: precMultiplicative}
	case ir.And:
		if t == ir.Bool {
			return operator{symbol: "&&", prec: precAndAnd}
		}
		return operator{symbol: "&", prec: precBitAnd}
	case ir.Or:
		if t == ir.Bool {
			return operator{symbol: "||", prec: precOrOr}
		}
		return operator{symbol: "|", prec: precBitOr}
	case ir.Xor:
		if t == ir.Bool {
			return operator{symbol: "!=", prec: precEquality}
		}
		return operator{symbol: "^", prec: precBitXor}
	case ir.Shl:
		return operator{symbol: "<<", prec: precShift}
	case ir.Shr:
		return operator{symbol: ">>", prec: precShift}
	case ir.Min, ir.Max:
		name := strings.ToLower(op.String())
		switch t {
		case ir.Float32:
			return operator{call: "f" + name + "f"}
		case ir.Float64:
			return operator{call: "f" + name}
		}
		return operator{call: name}
	case ir.Eq:
		return operator{symbol: "==", prec: precEquality}
	case ir.Ne:
		return operator{symbol: "!=", prec: precEquality}
	case ir.Lt:
		return operator{symbol: "<", prec: precRelational}
	case ir.Le:
		return operator{symbol: "<=", prec: precRelational}
	case ir.Gt:
		return operator{symbol: ">", prec: precRelational}
	}
	return operator{symbol: ">=", prec: precRelational}
}

// expr prints e as a full expression.
func expr(e ir.Expr) string {
	s, _ := term(e)
	return s
}

// term prints e and returns its precedence.
func term(e ir.Expr) (string, int) {
	switch e := e.(type) {
	case *ir.Const:
		s := cConst(e.Value)
		if strings.HasPrefix(s, "-") {
			return s, precUnary
		}
		return s, precPrimary
	case *ir.Var:
		return e.Name, precPrimary
	case *ir.Special:
		switch e.Kind {
		case ir.LaneIdx:
			return "(threadIdx.x & 31u)", precPrimary
		case ir.WarpIdx:
			return "(threadIdx.x >> 5)", precPrimary
		}
		return e.Kind.String(), precPrimary
	case *ir.Unary:
		if e.Op == ir.Neg && e.X.Type().IsSigned() {
			return wrapping(e.X.Type(), "-("+unsignedOf(e.X.Type())+")"+operand(e.X, precUnary, false)), precUnary
		}
		sym := "-"
		if e.Op == ir.Not {
			sym = "~"
			if e.X.Type() == ir.Bool {
				sym = "!"
			}
		}
		return sym + operand(e.X, precUnary, false), precUnary
	case *ir.Binary:
		op := binaryOperator(e.Op, e.X.Type())
		if op.call != "" {
			return op.call + "(" + expr(e.X) + ", " + expr(e.Y) + ")", precPrimary
		}
		if wraps(e.Op, e.X.Type()) {
			// Signed overflow is undefined in C; the IR wraps. Compute in
			// the unsigned type of the same width and convert back.
			return wrapping(e.X.Type(), unsignedArith(e)), precUnary
		}
		return operand(e.X, op.prec, false) + " " + op.symbol + " " + operand(e.Y, op.prec, true), op.prec
	case *ir.Select:
		return "(" + expr(e.Cond) + " ? " + expr(e.Then) + " : " + expr(e.Else) + ")", precPrimary
	case *ir.Convert:
		return "(" + cType(e.To) + ")" + operand(e.X, precUnary, false), precUnary
	case *ir.Load:
		return e.Array.Name + "[" + expr(e.Index) + "]", precPrimary
	case *ir.Len:
		if e.Array.Space == ir.Shared {
			return cConst(ir.UintValue(ir.Uint32, uint64(e.Array.Size))), precPrimary
		}
		return e.Array.Name + "_len", precPrimary
	case *ir.Invalid:
		return "(invalid expression: " + e.Msg + ")", precPrimary
	}
	return "(missing expression)", precPrimary
}

// operand prints e as an operand of an operator of precedence prec,
// parenthesised where C's rules would bind it otherwise or could surprise
// a reader: a right operand of equal precedence, a bitwise or shift operand
// that is another kind of operation, a comparison inside a comparison,
// && mixed with ||, and a leading minus.
func operand(e ir.Expr, prec int, right bool) string {
	s, p := term(e)
	inner := p > precLowest && p < precUnary
	paren := p < prec || (right && p == prec) || strings.HasPrefix(s, "-")
	switch {
	case prec >= precBitOr && prec <= precBitAnd || prec == precShift:
		paren = paren || (inner && p != prec)
	case prec == precEquality || prec == precRelational:
		paren = paren || p == precEquality || p == precRelational
	case prec == precOrOr || prec == precAndAnd:
		paren = paren || ((p == precOrOr || p == precAndAnd) && p != prec)
	}
	if paren {
		return "(" + s + ")"
	}
	return s
}

// wraps reports whether op on the signed type t can overflow, which C
// leaves undefined and the IR defines as wrapping around.
func wraps(op ir.BinOp, t ir.Type) bool {
	return t.IsSigned() && (op == ir.Add || op == ir.Sub || op == ir.Mul || op == ir.Shl)
}

// unsignedArith prints the wrapping operation e in the unsigned type as
// wide as its operands, nested wrapping operations staying unsigned.
func unsignedArith(e *ir.Binary) string {
	y := unsignedTerm(e.Y)
	if e.Op == ir.Shl {
		y = operand(e.Y, precShift, true) // the count keeps its value
	}
	return unsignedTerm(e.X) + " " + binaryOperator(e.Op, e.X.Type()).symbol + " " + y
}

// unsignedTerm prints the signed e as a value of the unsigned type as wide.
func unsignedTerm(e ir.Expr) string {
	if b, ok := e.(*ir.Binary); ok && wraps(b.Op, b.X.Type()) {
		return "(" + unsignedArith(b) + ")"
	}
	return "(" + unsignedOf(e.Type()) + ")" + operand(e, precUnary, false)
}

// unsignedOf returns the C name of the unsigned type as wide as t.
func unsignedOf(t ir.Type) string {
	if t.Bits() == 64 {
		return "unsigned long long"
	}
	return "unsigned int"
}

// wrapping converts the unsigned arithmetic in text back to the signed
// type t (modulo 2^bits, as CUDA defines the conversion).
func wrapping(t ir.Type, text string) string {
	if t == ir.Int64 {
		return "(long long)(" + text + ")"
	}
	return "(int)(" + text + ")"
}
