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

// Unary applies Op to X.
type Unary struct {
	Op UnOp
	X  Expr
}

// Binary applies Op to X and Y.
type Binary struct {
	Op   BinOp
	X, Y Expr
}

// Ternary applies Op to X, Y and Z.
type Ternary struct {
	Op      TernOp
	X, Y, Z Expr
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

// Type implements Expr: the operation's result type (NoType for an unknown
// operator).
func (e *Unary) Type() Type { return resultType(e.Op.Operation(), e.X) }

// Type implements Expr.
func (e *Binary) Type() Type { return resultType(e.Op.Operation(), e.X, e.Y) }

// Type implements Expr.
func (e *Ternary) Type() Type { return resultType(e.Op.Operation(), e.X, e.Y, e.Z) }

func resultType(o *Operation, operands ...Expr) Type {
	switch {
	case o == nil:
		return NoType
	case o.Result == BoolResult:
		return Bool
	}
	return o.Result.Of(operandType(operands...))
}

// operandType returns the type of operands that share one, looking at an
// operand whose type is known without descending first: a chain of
// operations nested thousands deep has its type in constant time when each
// level has such an operand.
func operandType(operands ...Expr) Type {
	for _, x := range operands {
		switch x := x.(type) {
		case *Const, *Var, *Special, *Len, *Load, *Convert, *Invalid:
			return x.Type()
		}
	}
	return operands[0].Type()
}

// Type implements Expr.
func (e *Select) Type() Type { return operandType(e.Then, e.Else) }

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
func (*Ternary) isExpr() {}
func (*Select) isExpr()  {}
func (*Convert) isExpr() {}
func (*Load) isExpr()    {}
func (*Len) isExpr()     {}
func (*Invalid) isExpr() {}
