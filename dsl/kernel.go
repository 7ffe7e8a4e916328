package dsl

import (
	"errors"
	"fmt"

	"github.com/obsidian-go/obsidian/check"
	"github.com/obsidian-go/obsidian/ir"
)

// Kernel builds one kernel: declare its parameters, give its body, Build.
// A Kernel is not safe for use by several goroutines at once.
type Kernel struct {
	ir      ir.Kernel
	errs    []error
	names   map[string]bool
	stack   []*scope
	hasBody bool
	built   bool
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
func NewKernel(name string, threads int) *Kernel {
	return &Kernel{
		ir:    ir.Kernel{Name: name, Threads: threads, Pos: callerPos()},
		names: map[string]bool{},
	}
}

// Name returns the kernel's name.
func (k *Kernel) Name() string { return k.ir.Name }

// Threads returns the kernel's threads per block.
func (k *Kernel) Threads() int { return k.ir.Threads }

func (k *Kernel) errorf(pos ir.Pos, format string, args ...any) {
	k.errs = append(k.errs, ir.Errorf(pos, format, args...))
}

// fresh returns a name based on hint that no parameter, array or variable of
// the kernel has yet.
func (k *Kernel) fresh(hint string) string {
	name := hint
	for i := 1; k.names[name]; i++ {
		name = fmt.Sprintf("%s%d", hint, i)
	}
	k.names[name] = true
	return name
}

func (k *Kernel) param(name string, p ir.Param, pos ir.Pos) {
	if k.hasBody {
		k.errorf(pos, "parameter %q declared after the kernel's body", name)
		return
	}
	k.names[name] = true
	k.ir.Params = append(k.ir.Params, p)
}

func global[T Scalar](k *Kernel, name string, access ir.Access) Array[T] {
	a := &ir.Array{Name: name, Elem: TypeOf[T](), Space: ir.Global, Access: access, Pos: callerPos()}
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
	v := &ir.Var{Name: name, T: TypeOf[T]()}
	k.param(name, ir.Param{Scalar: v}, callerPos())
	return Exp[T]{e: v}
}

// Body records the kernel's Grid-level program.
func (k *Kernel) Body(body func(g *Grid)) {
	pos := callerPos()
	if k.hasBody {
		k.errorf(pos, "kernel %s has a second Body", k.ir.Name)
		return
	}
	k.hasBody = true
	k.ir.Body = k.record(nil, ir.GridLevel, fmt.Sprintf("the body of kernel %s", k.ir.Name), func(s *scope) {
		body(newGrid(s))
	})
}

// record runs build with a new scope on top of the stack and returns the
// statements it recorded.
func (k *Kernel) record(parent *scope, level ir.Level, what string, build func(*scope)) []ir.Stmt {
	s := &scope{k: k, level: level, what: what}
	k.stack = append(k.stack, s)
	build(s)
	k.stack = k.stack[:len(k.stack)-1]
	s.done = true
	return s.stmts
}

func (k *Kernel) top() *scope {
	if len(k.stack) == 0 {
		return nil
	}
	return k.stack[len(k.stack)-1]
}

// use checks that s is the scope being recorded before op adds to it.
func (s *scope) use(op string, pos ir.Pos) bool {
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
		return true
	}
	return false
}

func (s *scope) add(st ir.Stmt) { s.stmts = append(s.stmts, st) }

// Build finishes the kernel and returns its IR, or every mistake found,
// each naming the user's Go line.
func (k *Kernel) Build() (*ir.Kernel, error) {
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
	out.Blocks = blocksNeeded(&out)
	if err := check.Verify(&out, check.DefaultTarget); err != nil {
		return nil, err
	}
	out.Verified = true
	return &out, nil
}

// blocksNeeded returns the number of blocks that covers every Grid-level
// ForAll of the body: ceil(n/threads) for a ForAll over threads, n for one
// over blocks, the largest of them; 1 when there is none. Counts that use
// Grid-level variables are expanded through their declarations.
func blocksNeeded(k *ir.Kernel) ir.Expr {
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
