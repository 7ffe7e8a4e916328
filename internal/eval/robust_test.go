package eval

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/ir"
)

// randomIR builds random kernels over a small vocabulary, mostly well
// typed (so that they run), sometimes not.
type randomIR struct {
	r      *rand.Rand
	vars   map[ir.Type]*ir.Var
	arrays map[ir.Type][]*ir.Array
}

// typ returns t, or now and then another type.
func (g *randomIR) typ(t ir.Type) ir.Type {
	if g.r.Intn(400) == 0 {
		return ir.Types[g.r.Intn(len(ir.Types))]
	}
	return t
}

func (g *randomIR) anyType() ir.Type { return ir.Types[g.r.Intn(len(ir.Types))] }

// index returns an index that is mostly in bounds of the arrays of 8.
func (g *randomIR) index(depth int) ir.Expr {
	if g.r.Intn(10) == 0 {
		return g.expr(ir.Uint32, depth)
	}
	return bin(ir.And, g.expr(ir.Uint32, depth), u32(7))
}

func (g *randomIR) array(t ir.Type) *ir.Array {
	as := g.arrays[g.typ(t)]
	return as[g.r.Intn(len(as))]
}

func (g *randomIR) expr(t ir.Type, depth int) ir.Expr {
	t = g.typ(t)
	switch n := g.r.Intn(9); {
	case depth <= 0 || n == 0:
		return &ir.Const{Value: ir.Value{T: t, Bits: (uint64(g.r.Intn(70)) - 3) & widthMask(t)}}
	case n == 1:
		return g.vars[t]
	case n == 2 && t == ir.Uint32:
		return &ir.Special{Kind: ir.SpecialKind(1 + g.r.Intn(6))}
	case n == 3:
		return &ir.Unary{Op: ir.UnOp(1 + g.r.Intn(2)), X: g.expr(t, depth-1)}
	case n == 4:
		return &ir.Select{Cond: g.expr(ir.Bool, depth-1), Then: g.expr(t, depth-1), Else: g.expr(t, depth-1)}
	case n == 5:
		return &ir.Convert{To: t, X: g.expr(g.anyType(), depth-1)}
	case n == 6:
		return &ir.Load{Array: g.array(t), Index: g.index(depth - 1), Pos: at(depth)}
	case t == ir.Bool:
		u := g.anyType()
		return &ir.Binary{Op: ir.BinOp(int(ir.And) + g.r.Intn(int(ir.Ge-ir.And)+1)), X: g.expr(u, depth-1), Y: g.expr(u, depth-1)}
	}
	return &ir.Binary{Op: ir.BinOp(1 + g.r.Intn(int(ir.Ge))), X: g.expr(t, depth-1), Y: g.expr(t, depth-1)}
}

func (g *randomIR) stmts(level ir.Level, depth int) []ir.Stmt {
	var list []ir.Stmt
	for range g.r.Intn(4) {
		list = append(list, g.stmt(level, depth))
	}
	return list
}

// forAllKinds lists the ForAll kinds that fit in code of each level.
var forAllKinds = map[ir.Level][]ir.ForAllKind{
	ir.GridLevel:   {ir.GridThreads, ir.GridBlocks, ir.BlockThreads, ir.BlockWarps},
	ir.BlockLevel:  {ir.BlockThreads, ir.BlockWarps},
	ir.WarpLevel:   {ir.WarpLanes},
	ir.ThreadLevel: {ir.WarpLanes},
}

func (g *randomIR) stmt(level ir.Level, depth int) ir.Stmt {
	t := g.anyType()
	v := g.vars[t]
	pos := at(1000 + depth)
	if depth <= 0 {
		return &ir.Assign{Var: v, Value: g.expr(t, 2), Pos: pos}
	}
	switch g.r.Intn(12) {
	case 0:
		return &ir.Decl{Var: v, Init: g.expr(t, 2), Pos: pos}
	case 1:
		return &ir.Store{Array: g.array(t), Index: g.index(2), Value: g.expr(t, 2), SameValue: g.r.Intn(2) == 0, Pos: pos}
	case 2:
		return &ir.If{Cond: g.expr(ir.Bool, 2), Then: g.stmts(level, depth-1), Else: g.stmts(level, depth-1), Pos: pos}
	case 3:
		return &ir.For{Var: g.vars[ir.Uint32], Count: bin(ir.And, g.expr(ir.Uint32, 1), u32(3)),
			Body: g.stmts(level, depth-1), Pos: pos}
	case 4:
		return &ir.While{Cond: g.expr(ir.Bool, 2), Body: g.stmts(level, depth-1), Pos: pos}
	case 5:
		kinds := forAllKinds[level]
		kind := kinds[g.r.Intn(len(kinds))]
		return &ir.ForAll{Kind: kind, Var: index("i" + strconv.Itoa(depth)), Count: u32(uint32(g.r.Intn(130))),
			Body: g.stmts(kind.Inner(), depth-1), Pos: pos}
	case 6:
		return &ir.Sync{Level: ir.Level(2 + g.r.Intn(2)), Pos: pos}
	case 7:
		if t == ir.Bool {
			t, v = ir.Uint32, g.vars[ir.Uint32]
		}
		return &ir.Atomic{Op: ir.AtomicOp(1 + g.r.Intn(11)), Array: g.array(t), Index: g.index(1), Value: g.expr(t, 1),
			Compare: g.expr(t, 1), Result: v, Pos: pos}
	case 8:
		if level != ir.ThreadLevel {
			return &ir.Assign{Var: v, Value: g.expr(t, 2), Pos: pos}
		}
		return &ir.Shuffle{Mode: ir.ShuffleMode(1 + g.r.Intn(4)), Result: v, Value: g.expr(t, 1),
			Lane: g.expr(ir.Uint32, 1), Pos: pos}
	case 9:
		if level != ir.ThreadLevel {
			return &ir.Decl{Var: v, Init: g.expr(t, 2), Pos: pos}
		}
		return &ir.Ballot{Result: g.vars[ir.Uint32], Pred: g.expr(ir.Bool, 1), Pos: pos}
	case 10:
		if level != ir.ThreadLevel {
			return &ir.Decl{Var: v, Init: g.expr(t, 2), Pos: pos}
		}
		return &ir.MatchAny{Result: g.vars[ir.Uint32], Value: g.expr(t, 1), Pos: pos}
	}
	return &ir.Assign{Var: v, Value: g.expr(t, 2), Pos: pos}
}

func TestRandomIRNeverPanics(t *testing.T) {
	saved := maxLaunchSteps
	maxLaunchSteps = 1 << 14
	defer func() { maxLaunchSteps = saved }()
	props := properties(t)
	props.Property("Launch and Expr report problems without panicking", prop.ForAll(func(seed int64) bool {
		g := &randomIR{r: rand.New(rand.NewSource(seed)), vars: map[ir.Type]*ir.Var{}, arrays: map[ir.Type][]*ir.Array{}}
		k := kernel(64, nil, nil)
		var args []Arg
		for _, t := range ir.Types {
			g.vars[t] = &ir.Var{Name: "v" + t.String(), T: t}
			a, s := global("g"+t.String(), t, ir.ReadWrite), shared("s"+t.String(), t, 8)
			g.arrays[t] = []*ir.Array{a, s}
			k.Params = append(k.Params, ir.Param{Array: a})
			args = append(args, Arg{Buffer: NewBuffer(t, 8)})
			k.Shared = append(k.Shared, s)
		}
		k.Body = g.stmts(ir.GridLevel, 4)
		err := Launch(k, Config{Blocks: 2}, args)
		_, exprErr := Expr(g.expr(g.anyType(), 4))
		for _, e := range []error{err, exprErr} {
			if e != nil && strings.Contains(e.Error(), "internal error") {
				t.Log(e)
				return false
			}
		}
		return true
	}, gen.Int64()))
	props.TestingRun(t)
}
