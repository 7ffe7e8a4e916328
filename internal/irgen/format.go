package irgen

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/obsidian-go/obsidian/ir"
)

// FormatExpr writes e in a Go-like notation, every constant with its type
// and every operation parenthesised, for failure messages.
func FormatExpr(e ir.Expr) string {
	switch e := e.(type) {
	case *ir.Const:
		return formatValue(e.Value)
	case *ir.Var:
		return e.Name
	case *ir.Special:
		return e.Kind.String()
	case *ir.Len:
		return "len(" + e.Array.Name + ")"
	case *ir.Load:
		return e.Array.Name + "[" + FormatExpr(e.Index) + "]"
	case *ir.Unary:
		return formatOperation(e.Op.Operation(), e.Op.String(), e.X)
	case *ir.Binary:
		return formatOperation(e.Op.Operation(), e.Op.String(), e.X, e.Y)
	case *ir.Ternary:
		return formatOperation(e.Op.Operation(), e.Op.String(), e.X, e.Y, e.Z)
	case *ir.Select:
		return "(" + FormatExpr(e.Cond) + " ? " + FormatExpr(e.Then) + " : " + FormatExpr(e.Else) + ")"
	case *ir.Convert:
		return e.To.String() + "(" + FormatExpr(e.X) + ")"
	case *ir.Invalid:
		return "invalid(" + strconv.Quote(e.Msg) + ")"
	}
	return fmt.Sprintf("%T", e)
}

// formatOperation writes an operation with Go's operator where the
// operator table gives one, else as a call of the operation's name.
func formatOperation(o *ir.Operation, name string, args ...ir.Expr) string {
	var sp ir.Spelling
	if o != nil {
		sp, _ = o.CUDA(args[0].Type())
	}
	formatted := make([]string, len(args))
	for i, a := range args {
		formatted[i] = FormatExpr(a)
	}
	switch {
	case sp.Go == "" || strings.ToLower(sp.Go) != strings.ToUpper(sp.Go):
		return name + "(" + strings.Join(formatted, ", ") + ")"
	case len(args) == 1:
		return sp.Go + formatted[0]
	}
	return "(" + formatted[0] + " " + sp.Go + " " + formatted[1] + ")"
}

// formatValue writes v as a Go conversion of its value to its type, with
// the bits of a NaN in hexadecimal.
func formatValue(v ir.Value) string {
	var s string
	switch {
	case v.T == ir.Bool:
		return strconv.FormatBool(v.Bool())
	case v.T == ir.Float32 && math.IsNaN(v.Float()):
		return fmt.Sprintf("math.Float32frombits(%#x)", v.Bits)
	case v.T == ir.Float64 && math.IsNaN(v.Float()):
		return fmt.Sprintf("math.Float64frombits(%#x)", v.Bits)
	case v.T == ir.Float32:
		s = strconv.FormatFloat(v.Float(), 'g', -1, 32)
	default:
		s = v.String()
	}
	return v.T.String() + "(" + s + ")"
}

// FormatKernel writes k in a Go-like notation, one statement a line, for
// failure messages.
func FormatKernel(k *ir.Kernel) string {
	f := &formatter{}
	var params []string
	for _, p := range k.Params {
		if p.Array != nil {
			params = append(params, fmt.Sprintf("%s %v []%v", p.Array.Name, p.Array.Access, p.Array.Elem))
		} else {
			params = append(params, p.Scalar.Name+" "+p.Scalar.T.String())
		}
	}
	f.line("kernel %s(%s), %d threads per block", k.Name, strings.Join(params, ", "), k.Threads)
	for _, a := range k.Shared {
		f.line("shared %s [%d]%v", a.Name, a.Size, a.Elem)
	}
	f.body(k.Body)
	return f.b.String()
}

// formatter writes statements with indentation.
type formatter struct {
	b     strings.Builder
	depth int
}

func (f *formatter) line(format string, args ...any) {
	f.b.WriteString(strings.Repeat("\t", f.depth))
	fmt.Fprintf(&f.b, format, args...)
	f.b.WriteByte('\n')
}

func (f *formatter) block(head string, body []ir.Stmt) {
	f.line("%s {", head)
	f.depth++
	f.body(body)
	f.depth--
	f.line("}")
}

func (f *formatter) body(body []ir.Stmt) {
	for _, s := range body {
		f.stmt(s)
	}
}

func (f *formatter) stmt(s ir.Stmt) {
	switch s := s.(type) {
	case *ir.Decl:
		f.line("var %s %v = %s", s.Var.Name, s.Var.T, FormatExpr(s.Init))
	case *ir.Assign:
		f.line("%s = %s", s.Var.Name, FormatExpr(s.Value))
	case *ir.Store:
		f.line("%s[%s] = %s", s.Array.Name, FormatExpr(s.Index), FormatExpr(s.Value))
	case *ir.If:
		f.block("if "+FormatExpr(s.Cond), s.Then)
		if len(s.Else) > 0 {
			f.block("else", s.Else)
		}
	case *ir.For:
		f.block(fmt.Sprintf("for %s %v < %s", s.Var.Name, s.Var.T, FormatExpr(s.Count)), s.Body)
	case *ir.While:
		f.block("while "+FormatExpr(s.Cond), s.Body)
	case *ir.ForAll:
		f.block(fmt.Sprintf("forall %v %s < %s", s.Kind, s.Var.Name, FormatExpr(s.Count)), s.Body)
	case *ir.Sync:
		f.line("sync %v", s.Level)
	case *ir.Atomic:
		args := FormatExpr(s.Value)
		if s.Compare != nil {
			args = FormatExpr(s.Compare) + ", " + args
		}
		call := fmt.Sprintf("atomic%v(&%s[%s], %s)", s.Op, s.Array.Name, FormatExpr(s.Index), args)
		if s.Result != nil {
			call = s.Result.Name + " = " + call
		}
		f.line("%s", call)
	case *ir.Shuffle:
		f.line("%s = shuffle%d(%s, %s)", s.Result.Name, s.Mode, FormatExpr(s.Value), FormatExpr(s.Lane))
	case *ir.Ballot:
		name := "ballot"
		if s.Agree {
			name = "agree"
		}
		f.line("%s = %s(%s)", s.Result.Name, name, FormatExpr(s.Pred))
	case *ir.MatchAny:
		f.line("%s = matchAny(%s)", s.Result.Name, FormatExpr(s.Value))
	default:
		f.line("%T", s)
	}
}
