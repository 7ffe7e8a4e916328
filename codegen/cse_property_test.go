package codegen

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/internal/irgen"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
)

// echo gives the statements of p's kernel (a deep copy) repeated
// subexpressions: in each statement, it replaces random subexpressions of
// values and conditions (not of indices or counts, nor of the values of
// variables that indices read) by copies of subexpressions of the same
// type that earlier statements of the same list, or of an enclosing one,
// always evaluate; and it adds assignments of such copies to thread-level
// variables, which change what the copies compute. The copies read
// variables still in scope, and what irgen generates stays well defined
// anywhere (its divisions and shifts carry their guards, its indices are
// reduced into range); a replaced subexpression is never the guarded
// operand of a division or shift, nor an index.
func echo(p *irgen.Program, r *rand.Rand) *irgen.Program {
	k := deepCopy(p.Kernel)
	acc := k.Params[2].Array
	indexVars := map[*ir.Var]bool{}
	ir.WalkStmts(k.Body, func(s ir.Stmt) bool {
		if st, ok := s.(*ir.Store); ok {
			ir.WalkExpr(st.Index, func(e ir.Expr) {
				if v, ok := e.(*ir.Var); ok {
					indexVars[v] = true
				}
			})
		}
		return true
	})
	// list echoes body, whose enclosing lists always evaluate pool, and
	// after some of its statements assigns a copy from pool to a
	// variable of vars, the thread-level variables in scope (in
	// thread-level code).
	var list func(body []ir.Stmt, pool []ir.Expr, vars []*ir.Var) []ir.Stmt
	list = func(body []ir.Stmt, pool []ir.Expr, vars []*ir.Var) []ir.Stmt {
		var out []ir.Stmt
		for _, s := range body {
			for _, f := range values(s) {
				if d, ok := s.(*ir.Decl); ok && indexVars[d.Var] {
					break
				}
				for range 2 {
					*f = replaceOne(*f, pool, r)
				}
			}
			for _, e := range ir.Exprs(s) {
				collect(e, &pool)
			}
			inner := pool[:len(pool):len(pool)] // appends in nested lists copy
			innerVars := vars[:len(vars):len(vars)]
			switch s := s.(type) {
			case *ir.If:
				s.Then, s.Else = list(s.Then, inner, innerVars), list(s.Else, inner, innerVars)
			case *ir.For:
				s.Body = list(s.Body, inner, innerVars)
			case *ir.While:
				s.Body = list(s.Body, inner, innerVars)
			case *ir.ForAll:
				var threadVars []*ir.Var // nil: not thread-level code
				if s.Kind.Inner() == ir.ThreadLevel {
					threadVars = []*ir.Var{}
				}
				s.Body = list(s.Body, inner, threadVars)
			case *ir.Decl:
				if vars != nil && !indexVars[s.Var] {
					vars = append(vars, s.Var)
				}
			}
			out = append(out, s)
			if len(vars) > 0 && r.Intn(3) == 0 {
				x := vars[r.Intn(len(vars))]
				if value := pick(pool, x.T, r); value != nil {
					out = append(out, &ir.Assign{Var: x, Value: value, Pos: s.Position()})
				}
			}
		}
		for _, x := range vars {
			out = append(out, observe(acc, x))
		}
		return out
	}
	k.Body = list(k.Body, nil, nil)
	q := *p
	q.Kernel = k
	return &q
}

// observe returns an atomic that folds the value of x into acc[0], so that
// the kernel's results depend on it.
func observe(acc *ir.Array, x *ir.Var) ir.Stmt {
	value := ir.Expr(x)
	if x.T.IsStorageFloat() {
		value = &ir.Convert{To: ir.Float32, X: value}
	}
	if value.Type() != acc.Elem {
		value = &ir.Convert{To: acc.Elem, X: value}
	}
	op := ir.AtomicXor
	if acc.Elem.IsFloat() {
		op = ir.AtomicAdd
	}
	return &ir.Atomic{Op: op, Array: acc, Index: &ir.Const{Value: ir.UintValue(ir.Uint32, 0)}, Value: value}
}

// values returns the addresses of the values and conditions s holds
// directly (not its indices or counts).
func values(s ir.Stmt) []*ir.Expr {
	var fs []*ir.Expr
	switch s := s.(type) {
	case *ir.Decl:
		fs = append(fs, &s.Init)
	case *ir.Assign:
		fs = append(fs, &s.Value)
	case *ir.Store:
		fs = append(fs, &s.Value)
	case *ir.If:
		fs = append(fs, &s.Cond)
	case *ir.Atomic:
		fs = append(fs, &s.Value)
		if s.Compare != nil {
			fs = append(fs, &s.Compare)
		}
	case *ir.Shuffle:
		fs = append(fs, &s.Value)
	case *ir.Ballot:
		fs = append(fs, &s.Pred)
	case *ir.MatchAny:
		fs = append(fs, &s.Value)
	}
	return fs
}

// collect adds to pool the non-trivial subexpressions of e that are
// evaluated whenever e is.
func collect(e ir.Expr, pool *[]ir.Expr) {
	if e == nil || trivial(e) {
		return
	}
	*pool = append(*pool, e)
	for _, c := range alwaysChildren(e) {
		collect(c, pool)
	}
}

// replaceOne returns e with one random replaceable subexpression replaced
// by a copy of an element of pool of its type, or e when none fits.
func replaceOne(e ir.Expr, pool []ir.Expr, r *rand.Rand) ir.Expr {
	var sites []ir.Expr
	var find func(e ir.Expr)
	find = func(e ir.Expr) {
		sites = append(sites, e)
		switch x := e.(type) {
		case *ir.Load:
			if b, ok := x.Index.(*ir.Binary); ok {
				find(b.X) // not the reduction into range
			}
			return
		case *ir.Binary:
			if o := x.Op.Operation(); o != nil && o.FaultsFor(x.X.Type()) != ir.NeverFaults {
				find(x.X) // not the guarded operand
				return
			}
		}
		for _, c := range ir.Children(e) {
			find(c)
		}
	}
	find(e)
	site := sites[r.Intn(len(sites))]
	copied := pick(pool, site.Type(), r)
	if copied == nil {
		return e
	}
	return ir.MapExpr(e, func(x ir.Expr) (ir.Expr, bool) {
		if x == site {
			return copied, true
		}
		return nil, false
	})
}

// pick returns a copy of a random element of pool of type t, or nil.
func pick(pool []ir.Expr, t ir.Type, r *rand.Rand) ir.Expr {
	var fits []ir.Expr
	for _, x := range pool {
		if x.Type() == t {
			fits = append(fits, x)
		}
	}
	if len(fits) == 0 {
		return nil
	}
	return ir.MapExpr(fits[r.Intn(len(fits))], func(ir.Expr) (ir.Expr, bool) { return nil, false })
}

// launchProgram runs k in the evaluator with fresh buffers holding p's
// arguments, and returns the final contents of its arrays.
func launchProgram(k *ir.Kernel, p *irgen.Program) ([][]ir.Value, error) {
	args := make([]eval.Arg, len(p.Args))
	for i, a := range p.Args {
		if k.Params[i].Array == nil {
			args[i] = eval.Arg{Scalar: a.Scalar}
			continue
		}
		b := eval.NewBuffer(k.Params[i].Array.Elem, len(a.Elems))
		for j, v := range a.Elems {
			b.Set(j, v)
		}
		args[i] = eval.Arg{Buffer: b}
	}
	if err := eval.Launch(k, eval.Config{Blocks: p.Blocks}, args); err != nil {
		return nil, err
	}
	return contents(args), nil
}

// sameValue reports whether a and b are the same value, any two NaNs of a
// type being the same.
func sameValue(a, b ir.Value) bool {
	if a.T == b.T && a.T.IsFloat() && math.IsNaN(a.Float()) && math.IsNaN(b.Float()) {
		return true
	}
	return a == b
}

// locals counts the declarations of k whose variables are named like the
// locals of eliminateCommonSubexpressions.
func locals(k *ir.Kernel) int {
	n := 0
	ir.WalkStmts(k.Body, func(s ir.Stmt) bool {
		if d, ok := s.(*ir.Decl); ok && strings.HasPrefix(d.Var.Name, "t") && strings.HasSuffix(d.Var.Name, "_") {
			n++
		}
		return true
	})
	return n
}

// TestCSEKeepsWhatRandomKernelsCompute checks, on irgen's kernels given
// repeated subexpressions by echo, that the compiled kernel, with its
// common subexpressions in locals, computes what the kernel as built does,
// and fails where it fails (Compile also rejects an operation that always
// faults where the run does not reach it); and that there were locals to
// make.
func TestCSEKeepsWhatRandomKernelsCompute(t *testing.T) {
	params := proptest.Parameters(t, 1000)
	var cases, withLocals, failing, unreached int
	props := gopter.NewProperties(params)
	props.Property("CSE keeps what a kernel computes", prop.ForAll(func(p *irgen.Program, seed int64) string {
		q := echo(p, rand.New(rand.NewSource(seed)))
		if err := Verify(q.Kernel, DefaultTarget); err != nil {
			return fmt.Sprintf("the echoed kernel fails verification: %v\n%v", err, q)
		}
		want, wantErr := launchProgram(q.Kernel, q)
		c, err := Compile(q.Kernel, DefaultTarget)
		switch {
		case err != nil && wantErr != nil:
			// Folding found the fault the kernel meets when it runs
			// (echo can make a guarded divisor zero).
			if !sameFault(err, wantErr) {
				return fmt.Sprintf("Compile: %v, though the kernel as built fails with %v\n%v", err, wantErr, q)
			}
			cases++
			failing++
			return ""
		case err != nil && strings.Contains(err.Error(), foldedFault):
			// An operation that faults whatever its other operand is an
			// error of the kernel even where the run does not reach it (a
			// branch not taken, an arm Select does not choose); Compile
			// finds it before CSE runs.
			cases++
			unreached++
			return ""
		case err != nil:
			return fmt.Sprintf("Compile: %v, though the kernel as built runs\n%v", err, q)
		}
		got, gotErr := launchProgram(c, q)
		cases++
		if locals(c) > 0 {
			withLocals++
		}
		switch {
		case (wantErr == nil) != (gotErr == nil):
			return fmt.Sprintf("the kernel as built fails with %v, compiled with %v\n%v\ncompiled:\n%s",
				wantErr, gotErr, q, irgen.FormatKernel(c))
		case wantErr != nil:
			failing++
			return ""
		}
		for i := range want {
			for j := range want[i] {
				if !sameValue(got[i][j], want[i][j]) {
					return fmt.Sprintf("array %s[%d] is %s compiled, %s as built\n%v\ncompiled:\n%s",
						q.Kernel.Params[i].Name(), j, got[i][j], want[i][j], q, irgen.FormatKernel(c))
				}
			}
		}
		return ""
	}, irgen.Kernel(3), gen.Int64()))
	props.TestingRun(t)
	t.Logf("%d kernels, %d with locals, %d failing as built, %d with an always-faulting operation the run does not reach",
		cases, withLocals, failing, unreached)
	if withLocals < cases/2 {
		t.Errorf("only %d of %d kernels had common subexpressions to make locals of", withLocals, cases)
	}
}

// foldedFault is what Compile's error says of an operation that folding
// constants showed to fault whatever its other operand.
const foldedFault = "once constants are folded"

// sameFault reports whether the error of folding and the error of a run
// name the same fault.
func sameFault(folded, run error) bool {
	for _, f := range []ir.Fault{ir.DivideByZero, ir.DivideOverflow, ir.ShiftOutOfRange} {
		if strings.Contains(folded.Error(), f.String()) {
			return strings.Contains(run.Error(), f.String())
		}
	}
	return false
}
