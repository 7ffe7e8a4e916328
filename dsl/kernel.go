package dsl

import (
	"errors"
	"fmt"

	"github.com/obsidian-go/obsidian/check"
	"github.com/obsidian-go/obsidian/ir"
)

// Kernel builds one kernel: declare its parameters, give its body, Build.
// A Kernel is not safe for use by several goroutines at once, and neither
// are its builders, variables and arrays.
//
// Builders, variables, parameters and arrays belong to the kernel that made
// them: using one in another kernel's body is an error of that kernel, as
// is any use of a nil builder (*Grid, *Block, *Warp or *Thread) or of a nil
// *Kernel, a nil body function, a zero Var or a zero Array. Build reports
// every such mistake at the user's line; none of them panics.
type Kernel struct {
	ir      ir.Kernel
	errs    []error
	names   map[string]string // what each name of the printed kernel is
	stack   []*scope
	hasBody bool
	built   bool
	// vars and arrays are the kernel's own; checked holds the expression
	// nodes already found to use nothing else.
	vars    map[*ir.Var]bool
	arrays  map[*ir.Array]bool
	checked map[ir.Expr]bool
	// inner is the kernel whose body the goroutine recording this kernel's
	// body is recording inside it, or nil.
	inner *Kernel
}

// scope is one statement list being recorded: the body of a kernel, a
// ForAll, an If branch or a loop.
type scope struct {
	k     *Kernel
	level ir.Level
	stmts []ir.Stmt
	what  string // "the Block body of the ForAllBlocks at f.go:12", for messages
	done  bool
}

// NewKernel starts a kernel called name that runs threads threads per block.
// The name must be a C identifier that CUDA C does not use already (not a
// keyword, not main, printf, sqrt, threadIdx, ...): see codegen.CheckName.
func NewKernel(name string, threads int) *Kernel {
	k := &Kernel{
		ir:      ir.Kernel{Name: name, Threads: threads, Pos: callerPos()},
		names:   map[string]string{name: "the kernel"},
		vars:    map[*ir.Var]bool{},
		arrays:  map[*ir.Array]bool{},
		checked: map[ir.Expr]bool{},
	}
	if err := check.CheckName(name); err != nil {
		k.errorf(k.ir.Pos, "kernel %s: %v", name, err)
	}
	return k
}

// Name returns the kernel's name ("" for a nil *Kernel).
func (k *Kernel) Name() string {
	if k == nil {
		return ""
	}
	return k.ir.Name
}

// Threads returns the kernel's threads per block (0 for a nil *Kernel).
func (k *Kernel) Threads() int {
	if k == nil {
		return 0
	}
	return k.ir.Threads
}

// MinBlocks asks the compiler to keep the kernel's registers few enough
// for n of its blocks to run at once on each multiprocessor (CUDA's
// __launch_bounds__ minimum): a kernel whose threads hold many values in
// registers (dsl.Held) may otherwise take so many that fewer blocks fit,
// leaving the multiprocessor too few warps to hide memory's latency. The
// compiler may then keep some values in local memory instead. n below 0,
// or more blocks than a multiprocessor holds threads for, is an error at
// the line that calls it.
func (k *Kernel) MinBlocks(n int) {
	if k == nil {
		return
	}
	if n < 0 || n*k.ir.Threads > check.MaxThreadsPerMultiprocessor {
		k.errorf(callerPos(), "MinBlocks(%d) of a kernel of %d threads per block: a multiprocessor holds at most %d "+
			"threads", n, k.ir.Threads, check.MaxThreadsPerMultiprocessor)
		return
	}
	k.ir.MinBlocks = n
}

func (k *Kernel) errorf(pos ir.Pos, format string, args ...any) {
	k.errs = append(k.errs, ir.Errorf(pos, format, args...))
}

// fresh returns a name based on hint that no parameter, array or variable of
// the kernel has yet and that CUDA does not define (j1 and y1 are Bessel
// functions).
func (k *Kernel) fresh(hint string) string {
	name := hint
	for i := 1; k.names[name] != "" || check.CheckName(name) != nil; i++ {
		name = fmt.Sprintf("%s%d", hint, i)
	}
	k.names[name] = "a variable"
	return name
}

// newVar returns a new variable of the kernel.
func (k *Kernel) newVar(hint string, t ir.Type) *ir.Var {
	v := &ir.Var{Name: k.fresh(hint), T: t}
	k.vars[v] = true
	return v
}

// param adds a parameter named name, checking the name. The parameter is
// the kernel's own even when the name is wrong, so that its uses are not
// reported again.
func (k *Kernel) param(name string, p ir.Param, pos ir.Pos) {
	if p.Array != nil {
		k.arrays[p.Array] = true
	} else {
		k.vars[p.Scalar] = true
	}
	length := "" // the name of the array's length in the printed kernel
	if p.Array != nil {
		length = name + "_len"
	}
	switch err := check.CheckName(name); {
	case k.hasBody:
		k.errorf(pos, "parameter %q declared after the kernel's body", name)
	case err != nil:
		k.errorf(pos, "parameter %q of kernel %s: %v", name, k.ir.Name, err)
	case k.names[name] == "a parameter":
		k.errorf(pos, "kernel %s has two parameters named %s", k.ir.Name, name)
	case k.names[name] != "":
		k.errorf(pos, "parameter %q of kernel %s is named like %s", name, k.ir.Name, k.names[name])
	case length != "" && k.names[length] != "":
		k.errorf(pos, "array parameter %q of kernel %s: its length would be named %s, like %s", name, k.ir.Name,
			length, k.names[length])
	default:
		k.names[name] = "a parameter"
		if length != "" {
			k.names[length] = "the length of array " + name
		}
		k.ir.Params = append(k.ir.Params, p)
	}
}

// nilKernel reports a declaration on a nil *Kernel.
func nilKernel(op string, pos ir.Pos) {
	if k := reportTo(nil); k != nil {
		k.errorf(pos, "%s on a nil *Kernel (kernels come from NewKernel)", op)
	}
}

func global[T Scalar](k *Kernel, name string, access ir.Access) Array[T] {
	pos := callerPos()
	if k == nil {
		nilKernel(fmt.Sprintf("%v array %s declared", access, name), pos)
		return Array[T]{}
	}
	a := &ir.Array{Name: name, Elem: TypeOf[T](), Space: ir.Global, Access: access, Pos: pos}
	k.param(name, ir.Param{Array: a}, a.Pos)
	return Array[T]{a: a, k: k}
}

// Input declares a read-only global array parameter (passed with its length).
func Input[T Scalar](k *Kernel, name string) Array[T] { return global[T](k, name, ir.Input) }

// Output declares a write-only global array parameter (passed with its
// length; nothing is ever written at or past the length).
func Output[T Scalar](k *Kernel, name string) Array[T] { return global[T](k, name, ir.Output) }

// InOut declares a global array parameter that the kernel reads and writes.
func InOut[T Scalar](k *Kernel, name string) Array[T] { return global[T](k, name, ir.ReadWrite) }

// Param declares a scalar parameter.
func Param[T Scalar](k *Kernel, name string) Exp[T] {
	pos := callerPos()
	if k == nil {
		nilKernel("scalar parameter "+name+" declared", pos)
		return invalid[T](fmt.Sprintf("use of parameter %s, declared on a nil *Kernel", name))
	}
	v := &ir.Var{Name: name, T: TypeOf[T]()}
	k.param(name, ir.Param{Scalar: v}, pos)
	return Exp[T]{e: v}
}

// Body records the kernel's Grid-level program.
func (k *Kernel) Body(body func(g *Grid)) {
	pos := callerPos()
	switch {
	case k == nil:
		nilKernel("Body", pos)
		return
	case body == nil:
		k.errorf(pos, "kernel %s: Body(nil)", k.ir.Name)
		return
	case k.built:
		k.errorf(pos, "kernel %s: Body after the kernel was built", k.ir.Name)
		return
	case k.hasBody:
		k.errorf(pos, "kernel %s has a second Body", k.ir.Name)
		return
	}
	k.hasBody = true
	stop := k.startRecording()
	defer stop()
	k.ir.Body = k.record(nil, ir.GridLevel, fmt.Sprintf("the body of kernel %s", k.ir.Name), func(s *scope) {
		body(&Grid{s})
	})
}

// record runs build with a new scope on top of the stack and returns the
// statements it recorded.
func (k *Kernel) record(parent *scope, level ir.Level, what string, build func(*scope)) []ir.Stmt {
	s := &scope{k: k, level: level, what: what}
	k.stack = append(k.stack, s)
	defer func() {
		k.stack = k.stack[:len(k.stack)-1]
		s.done = true
	}()
	build(s)
	return s.stmts
}

func (k *Kernel) top() *scope {
	if len(k.stack) == 0 {
		return nil
	}
	return k.stack[len(k.stack)-1]
}

// innermost returns the kernel whose body is being recorded inside k's, at
// any depth, or k.
func (k *Kernel) innermost() *Kernel {
	for k.inner != nil {
		k = k.inner
	}
	return k
}

// open returns the scope op adds a statement to through builder p, or nil
// after reporting why it cannot: p is nil, belongs to a kernel other than
// the one being recorded, or is not the builder of the body being recorded
// now.
func open(p Program, op string, pos ir.Pos) *scope {
	var s *scope
	if p != nil {
		s = p.scope()
	}
	if s == nil {
		if k := reportTo(nil); k != nil {
			k.errorf(pos, "%s on a nil builder (%T): use the builder the body was given", op, p)
		}
		return nil
	}
	if !s.k.here(op+" on a builder", pos) {
		return nil
	}
	top := s.k.top()
	switch {
	case s.k.built:
		s.k.errorf(pos, "%s after the kernel was built", op)
	case s.done:
		s.k.errorf(pos, "%s on the builder of %s, which has already returned", op, s.what)
	case top != s:
		s.k.errorf(pos, "%s in %s: a %v program's builder was used inside a nested %v body; "+
			"use the builder that body was given", op, top.what, s.level, top.level)
	default:
		return s
	}
	return nil
}

// here reports whether k's body may be added to now by the calling
// goroutine: it is being recorded (or nothing is, and the mistake is k's
// own), and no other kernel's body is being recorded inside it. Otherwise
// it reports what (an operation on an object of k) to the kernel being
// recorded, which must not use k's objects.
func (k *Kernel) here(what string, pos ir.Pos) bool {
	other := k.inner
	if other == nil && k.top() == nil {
		other = recording()
	}
	if other == nil {
		return true
	}
	other = other.innermost()
	other.errorf(pos, "%s of kernel %s, in the body of kernel %s: builders, variables, parameters and arrays "+
		"belong to the kernel that made them", what, k.ir.Name, other.ir.Name)
	return false
}

// add checks that st uses only k's own variables and arrays, and records
// it.
func (s *scope) add(st ir.Stmt) {
	s.k.checkOwned(st)
	s.stmts = append(s.stmts, st)
}

// checkOwned reports the variables and arrays of other kernels (or made
// outside the DSL) that st uses.
func (k *Kernel) checkOwned(st ir.Stmt) {
	pos := st.Position()
	switch st := st.(type) {
	case *ir.Store:
		k.checkArray(st.Array, pos)
	case *ir.Atomic:
		k.checkArray(st.Array, pos)
	}
	for _, e := range ir.Exprs(st) {
		k.checkExpr(e, pos)
	}
}

func (k *Kernel) checkArray(a *ir.Array, pos ir.Pos) {
	if a != nil && !k.arrays[a] {
		k.errorf(pos, "array %s is not an array of kernel %s: it was declared by another kernel", a.Name, k.ir.Name)
	}
}

// checkExpr reports the foreign variables and arrays of e, visiting each
// node once however often the expression graph shares it.
func (k *Kernel) checkExpr(e ir.Expr, pos ir.Pos) {
	if e == nil || k.checked[e] {
		return
	}
	k.checked[e] = true
	switch e := e.(type) {
	case *ir.Var:
		if !k.vars[e] {
			k.errorf(pos, "variable %s is not a variable or parameter of kernel %s: it was declared by another "+
				"kernel", e.Name, k.ir.Name)
		}
	case *ir.Len:
		k.checkArray(e.Array, pos)
	case *ir.Load:
		at := e.Pos
		if at == (ir.Pos{}) {
			at = pos
		}
		k.checkArray(e.Array, at)
		k.checkExpr(e.Index, pos)
	case *ir.Unary:
		k.checkExpr(e.X, pos)
	case *ir.Binary:
		k.checkExpr(e.X, pos)
		k.checkExpr(e.Y, pos)
	case *ir.Select:
		k.checkExpr(e.Cond, pos)
		k.checkExpr(e.Then, pos)
		k.checkExpr(e.Else, pos)
	case *ir.Convert:
		k.checkExpr(e.X, pos)
	case *ir.Const, *ir.Special, *ir.Invalid:
	default:
		// A node this walk does not know: look at its parts the slow way.
		ir.WalkExpr(e, func(x ir.Expr) {
			if x != e {
				k.checkExpr(x, pos)
			}
		})
	}
}

// Build finishes the kernel and returns its IR, or every mistake found,
// each naming the user's Go line.
func (k *Kernel) Build() (*ir.Kernel, error) {
	if k == nil {
		return nil, ir.Errorf(callerPos(), "Build of a nil *Kernel (kernels come from NewKernel)")
	}
	if !k.hasBody {
		k.errorf(k.ir.Pos, "kernel %s has no Body", k.ir.Name)
	}
	if k.built {
		return nil, ir.Errorf(k.ir.Pos, "kernel %s built twice", k.ir.Name)
	}
	k.built = true
	if len(k.errs) > 0 {
		return nil, errors.Join(k.errs...)
	}
	out := k.ir
	out.Blocks = k.blocksNeeded(&out)
	if len(k.errs) > 0 {
		return nil, errors.Join(k.errs...)
	}
	if err := check.Verify(&out, check.DefaultTarget); err != nil {
		return nil, err
	}
	out.Verified = true
	return &out, nil
}

// blocksNeeded returns the number of blocks that covers every Grid-level
// ForAll of the body: ceil(n/threads) for a ForAll over threads, n for one
// over blocks, the largest of them; 1 when there is none. Counts that use
// Grid-level variables are expanded through their declarations. A count
// the host cannot compute (see check.NotOnHost) is an error at its ForAll's
// line.
func (b *Kernel) blocksNeeded(k *ir.Kernel) ir.Expr {
	defs := map[*ir.Var]ir.Expr{}
	var blocks ir.Expr
	threads := &ir.Const{Value: ir.UintValue(ir.Uint32, uint64(k.Threads))}
	one := &ir.Const{Value: ir.UintValue(ir.Uint32, 1)}
	for _, s := range k.Body {
		var need ir.Expr
		switch s := s.(type) {
		case *ir.Decl:
			defs[s.Var] = s.Init
			continue
		case *ir.Assign:
			delete(defs, s.Var)
			continue
		case *ir.ForAll:
			n := expand(s.Count, defs)
			if bad := check.NotOnHost(k, n); bad != "" {
				b.errorf(s.Pos, "the count of this %v ForAll sizes the launch, so the host computes it from "+
					"constants, scalar parameters and lengths of array parameters; it uses %s (a count from "+
					"data belongs in a loop inside a block or a thread)", s.Kind, bad)
				continue
			}
			if s.Kind == ir.GridThreads {
				// ceil(n / T) without overflow: n/T + (n%T != 0)
				need = &ir.Binary{Op: ir.Add, X: &ir.Binary{Op: ir.Div, X: n, Y: threads},
					Y: &ir.Convert{To: ir.Uint32, X: &ir.Binary{Op: ir.Ne, X: &ir.Binary{Op: ir.Rem, X: n, Y: threads},
						Y: &ir.Const{Value: ir.UintValue(ir.Uint32, 0)}}}}
			} else {
				need = n
			}
		default:
			continue
		}
		if blocks == nil {
			blocks = need
		} else {
			blocks = &ir.Binary{Op: ir.Max, X: blocks, Y: need}
		}
	}
	if blocks == nil {
		return one
	}
	return &ir.Binary{Op: ir.Max, X: blocks, Y: one}
}

// expand replaces variables in e by their definitions where known.
func expand(e ir.Expr, defs map[*ir.Var]ir.Expr) ir.Expr {
	return ir.MapExpr(e, func(e ir.Expr) (ir.Expr, bool) {
		if v, ok := e.(*ir.Var); ok && defs[v] != nil {
			return expand(defs[v], defs), true
		}
		return nil, false
	})
}
