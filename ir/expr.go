package ir

// Expr is an expression. The implementations are the types of this file.
type Expr interface {
	// Type returns the scalar type of the expression's value.
	Type() Type
	isExpr()
}

// Const is a constant.
type Const struct{ Value Value }

// Var is a local variable, a loop or ForAll index, or a scalar kernel
// parameter. Variables are identified by pointer; Name is unique in a kernel.
type Var struct {
	Name string
	T    Type
}

// SpecialKind names a hardware index or size.
type SpecialKind uint8

// The hardware indices and sizes (all uint32). Users of the DSL normally use
// the index variables of ForAll statements instead, which stay right when a
// ForAll is virtualised.
const (
	ThreadIdx SpecialKind = iota + 1 // threadIdx.x
	BlockIdx                         // blockIdx.x
	BlockDim                         // blockDim.x
	GridDim                          // gridDim.x
	LaneIdx                          // threadIdx.x % 32
	WarpIdx                          // threadIdx.x / 32
)

// String returns the CUDA spelling of the index.
func (k SpecialKind) String() string {
	switch k {
	case ThreadIdx:
		return "threadIdx.x"
	case BlockIdx:
		return "blockIdx.x"
	case BlockDim:
		return "blockDim.x"
	case GridDim:
		return "gridDim.x"
	case LaneIdx:
		return "lane"
	case WarpIdx:
		return "warp"
	}
	return "special?"
}

// Special is a hardware index or size, of type uint32.
type Special struct{ Kind SpecialKind }

// UnOp is a unary operator.
type UnOp uint8

// The unary operators.
const (
	Neg UnOp = iota + 1 // arithmetic negation (wraps for integers)
	Not                 // bitwise complement for integers, logical not for bool
)

// Unary applies Op to X; the result has X's type.
type Unary struct {
	Op UnOp
	X  Expr
}

// BinOp is a binary operator.
type BinOp uint8

// The binary operators. Arithmetic, bitwise and Min/Max take two operands of
// one type and give that type; shifts take a shift count of the same type
// as the value; comparisons give Bool. And, Or and Xor on Bool are the
// logical operators.
const (
	Add BinOp = iota + 1
	Sub
	Mul
	Div
	Rem
	And
	Or
	Xor
	Shl
	Shr // arithmetic for signed types, logical for unsigned
	Min
	Max
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
)

var binOpNames = [...]string{Add: "Add", Sub: "Sub", Mul: "Mul", Div: "Div", Rem: "Rem", And: "And", Or: "Or",
	Xor: "Xor", Shl: "Shl", Shr: "Shr", Min: "Min", Max: "Max", Eq: "Eq", Ne: "Ne", Lt: "Lt", Le: "Le", Gt: "Gt", Ge: "Ge"}

// String returns the operator's name.
func (op BinOp) String() string {
	if int(op) < len(binOpNames) && binOpNames[op] != "" {
		return binOpNames[op]
	}
	return "BinOp?"
}

// IsComparison reports whether op gives a Bool from two operands.
func (op BinOp) IsComparison() bool { return op >= Eq && op <= Ge }

// Binary applies Op to X and Y.
type Binary struct {
	Op   BinOp
	X, Y Expr
}

// Select is the conditional expression Cond ? Then : Else.
type Select struct {
	Cond, Then, Else Expr
}

// Convert converts X to type To with CUDA C's conversion rules (integers
// wrap; float to integer truncates toward zero).
type Convert struct {
	To Type
	X  Expr
}

// Load reads Array[Index]. Index has type Uint32.
type Load struct {
	Array *Array
	Index Expr
	Pos   Pos
}

// Len is the length (number of elements) of an array, of type Uint32: a
// kernel parameter for global arrays, a constant for shared ones.
type Len struct{ Array *Array }

// Invalid stands where the user built an expression that is wrong on its
// own (a shift by a constant at least the bit width, say). The verify pass
// reports it; nothing prints or evaluates it.
type Invalid struct {
	T   Type
	Msg string
	Pos Pos
}

// Type implements Expr.
func (e *Const) Type() Type { return e.Value.T }

// Type implements Expr.
func (e *Var) Type() Type { return e.T }

// Type implements Expr.
func (e *Special) Type() Type { return Uint32 }

// Type implements Expr.
func (e *Unary) Type() Type { return e.X.Type() }

// Type implements Expr.
func (e *Binary) Type() Type {
	if e.Op.IsComparison() {
		return Bool
	}
	return e.X.Type()
}

// Type implements Expr.
func (e *Select) Type() Type { return e.Then.Type() }

// Type implements Expr.
func (e *Convert) Type() Type { return e.To }

// Type implements Expr.
func (e *Load) Type() Type { return e.Array.Elem }

// Type implements Expr.
func (e *Len) Type() Type { return Uint32 }

// Type implements Expr.
func (e *Invalid) Type() Type { return e.T }

func (*Const) isExpr()   {}
func (*Var) isExpr()     {}
func (*Special) isExpr() {}
func (*Unary) isExpr()   {}
func (*Binary) isExpr()  {}
func (*Select) isExpr()  {}
func (*Convert) isExpr() {}
func (*Load) isExpr()    {}
func (*Len) isExpr()     {}
func (*Invalid) isExpr() {}
