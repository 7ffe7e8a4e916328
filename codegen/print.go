package codegen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/simplify"
)

// Print returns the CUDA C text of a compiled kernel (one returned by
// Compile): an extern "C" __global__ function taking the kernel's
// parameters in order, each global array followed by its length. The text
// depends only on the kernel, so the same kernel always prints the same
// bytes.
func Print(k *ir.Kernel) string {
	p := &printer{k: k, names: newNameSupply(k), assigned: assignedVars(k.Body), copiesAsync: copiesAsync(k.Body)}
	p.bounds = newBounds(k.Body, p.assigned)
	p.kernel()
	return p.b.String()
}

// printer writes one kernel.
type printer struct {
	k     *ir.Kernel
	b     strings.Builder
	depth int
	names *nameSupply // names the temps
	// assigned holds the variables assigned after their declaration: the
	// others print as const.
	assigned map[*ir.Var]bool
	// bounds finds constant upper bounds of loop counts.
	bounds bounds
	// known holds the conditions of the enclosing ifs that still hold
	// where the printer is: a store or atomic they already guard is not
	// guarded again.
	known []*knownCondition
	// copiesAsync: the kernel makes asynchronous copies, which each
	// block-level barrier waits for first.
	copiesAsync bool
}

// knownCondition is the condition of an enclosing if, while none of the
// variables it reads has been assigned since.
type knownCondition struct {
	cond  ir.Expr
	vars  map[*ir.Var]bool
	holds bool
}

func (p *printer) line(format string, args ...any) {
	p.b.WriteString(strings.Repeat("  ", p.depth))
	fmt.Fprintf(&p.b, format, args...)
	p.b.WriteByte('\n')
}

func (p *printer) kernel() {
	k := p.k
	p.line("// %s: %d threads per block, %d bytes of shared memory", k.Name, k.Threads, k.SharedBytes)
	for _, h := range helpers(k) {
		p.line("%s", h)
	}
	for _, a := range k.Constants {
		p.constTable(a)
	}
	var params []string
	for _, prm := range k.Params {
		if a := prm.Array; a != nil {
			params = append(params, fmt.Sprintf("%s* %s, unsigned int %s_len", paramType(a), a.Name, a.Name))
		} else {
			params = append(params, prm.Scalar.T.C()+" "+prm.Scalar.Name)
		}
	}
	bounds := fmt.Sprint(k.Threads)
	if k.MinBlocks > 0 {
		bounds += fmt.Sprintf(", %d", k.MinBlocks)
	}
	p.line(`extern "C" __global__ void __launch_bounds__(%s) %s(%s) {`, bounds, k.Name, strings.Join(params, ", "))
	p.depth++
	for _, prm := range k.Params {
		if a := prm.Array; a != nil && a.Align > a.Elem.Size() {
			// The compiler may then merge consecutive accesses into
			// one as wide as the alignment.
			p.line("%s = (%s*)__builtin_assume_aligned(%s, %d);", a.Name, paramType(a), a.Name, a.Align)
		}
	}
	if len(k.Shared) > 0 {
		p.line("extern __shared__ __align__(16) unsigned char smem[];")
		for _, a := range k.Shared {
			t := a.Elem.C()
			if a.PerWarp {
				// Each warp's pointer is to its own region.
				p.line("%s* %s = (%s*)(smem + %d) + (threadIdx.x >> %d) * %d;", t, a.Name, t, a.Offset, ir.LaneBits,
					a.Size)
				continue
			}
			p.line("%s* %s = (%s*)(smem + %d);", t, a.Name, t, a.Offset)
		}
	}
	for _, a := range k.Locals {
		p.line("%s %s[%d];", a.Elem.C(), a.Name, a.Size)
	}
	p.body(k.Body)
	p.depth--
	p.line("}")
}

// tableRow is how many elements of a constant table the printer puts on
// one line.
const tableRow = 8

// constTable prints the file-scope definition of a constant table, its
// elements tableRow to a line.
func (p *printer) constTable(a *ir.Array) {
	elem, bits := a.Elem.C(), bitTable(a)
	if bits != nil {
		elem = bits.word.C()
	}
	head := fmt.Sprintf("__constant__ %s %s[%d] = {", elem, a.Name, a.Size)
	elems := make([]string, len(a.Values))
	for i, v := range a.Values {
		if bits != nil {
			elems[i] = bits.literal(v)
		} else {
			elems[i] = cConst(v) // finite: bitTable holds tables with an infinity
		}
	}
	if len(elems) <= tableRow {
		p.line("%s%s};", head, strings.Join(elems, ", "))
		return
	}
	p.line("%s", head)
	for i := 0; i < len(elems); i += tableRow {
		p.line("  %s,", strings.Join(elems[i:min(i+tableRow, len(elems))], ", "))
	}
	p.line("};")
}

func (p *printer) body(body []ir.Stmt) {
	for _, s := range body {
		p.stmt(s)
	}
}

// block prints body one level deeper.
func (p *printer) block(body []ir.Stmt) {
	p.depth++
	p.body(body)
	p.depth--
}

// prepare hoists the expressions of a statement marked once, and the
// parts of deep ones, into temps (see hoist), prints the temps, and
// returns the expressions to print.
func (p *printer) prepare(exprs []ir.Expr, once ...bool) []ir.Expr {
	h := hoist(exprs, once)
	p.emitTemps(h)
	return h.exprs
}

// emitTemps names and prints the temps of a hoisted statement.
func (p *printer) emitTemps(h hoisted) {
	for _, t := range h.temps {
		t.v.Name = p.names.next()
	}
	for _, t := range h.temps {
		p.line("const %s %s = %s;", t.v.T.C(), t.v.Name, expr(t.value))
	}
}

func (p *printer) stmt(s ir.Stmt) {
	switch s := s.(type) {
	case *ir.Decl:
		e := p.prepare([]ir.Expr{s.Init})
		qual := "const "
		if p.assigned[s.Var] {
			qual = ""
		}
		p.line("%s%s %s = %s;", qual, s.Var.T.C(), s.Var.Name, expr(e[0]))
	case *ir.Assign:
		e := p.prepare([]ir.Expr{s.Value})
		p.line("%s = %s;", s.Var.Name, expr(e[0]))
		p.forget(func(v *ir.Var) bool { return v == s.Var })
	case *ir.Store:
		if src := s.AsyncSource(); src != nil {
			p.printAsyncCopy(s, src)
			break
		}
		guard := s.Array.Space == ir.Global && !p.holds(s.Array, s.Index)
		e := p.prepare([]ir.Expr{s.Index, s.Value}, guard)
		index := expr(e[0])
		p.guarded(s.Array, index, guard, fmt.Sprintf("%s[%s] = %s;", s.Array.Name, index, expr(e[1])))
	case *ir.Atomic:
		p.atomic(s)
	case *ir.Fence:
		p.line("__threadfence();")
	case *ir.Sleep:
		p.line("__nanosleep(%du);", s.Nanos)
	case *ir.If:
		p.ifChain(s)
	case *ir.For:
		e := p.prepare([]ir.Expr{s.Count}, true)
		count := expr(e[0])
		if c, ok := e[0].(*ir.Var); ok && assigned(s.Body, c) {
			// The count is read once, before the loop, even if the body
			// changes the variable it comes from.
			count = p.names.next()
			p.line("const %s %s = %s;", c.T.C(), count, c.Name)
		}
		v := s.Var.Name
		p.line("for (%s %s = %s; %s < %s; %s++) {", s.Var.T.C(), v, cConst(ir.Value{T: s.Var.T}), v, count, v)
		p.forget(func(v *ir.Var) bool { return assigned(s.Body, v) })
		p.block(s.Body)
		p.line("}")
	case *ir.While:
		p.line("while (%s) {", expr(s.Cond))
		p.forget(func(v *ir.Var) bool { return assigned(s.Body, v) })
		p.block(s.Body)
		p.line("}")
	case *ir.ForAll:
		p.forAll(s)
	case *ir.Sync:
		if s.Level == ir.WarpLevel {
			p.line("__syncwarp();")
		} else {
			if p.copiesAsync {
				p.line("__obs_copy_async_wait();")
			}
			p.line("__syncthreads();")
		}
	case *ir.Shuffle:
		p.forget(func(v *ir.Var) bool { return v == s.Result })
		e := p.prepare([]ir.Expr{s.Value, s.Lane})
		if t := s.Result.T; t.Size() < 4 {
			// CUDA shuffles 32 and 64-bit values: through int and back
			p.line("%s = (%s)%s(0xffffffffu, (int)%s, %s);", s.Result.Name, t.C(), shuffleFunction[s.Mode],
				operand(e[0], precUnary, false), expr(e[1]))
			break
		}
		p.line("%s = %s(0xffffffffu, %s, %s);", s.Result.Name, shuffleFunction[s.Mode], expr(e[0]), expr(e[1]))
	case *ir.Ballot:
		p.printBallot(s)
	case *ir.MatchAny:
		p.forget(func(v *ir.Var) bool { return v == s.Result })
		e := p.prepare([]ir.Expr{s.Value})
		value := expr(e[0])
		if bits, ok := floatBits[s.Value.Type()]; ok { // floats match by their bits
			value = bits + "(" + value + ")"
		}
		p.line("%s = __match_any_sync(0xffffffffu, %s);", s.Result.Name, value)
	}
}

// floatBits names the function that gives a float's bits, which
// __match_any_sync compares.
var floatBits = map[ir.Type]string{ir.Float32: "__float_as_uint", ir.Float64: "__double_as_longlong"}

var shuffleFunction = map[ir.ShuffleMode]string{
	ir.ShuffleIdx:  "__shfl_sync",
	ir.ShuffleUp:   "__shfl_up_sync",
	ir.ShuffleDown: "__shfl_down_sync",
	ir.ShuffleXor:  "__shfl_xor_sync",
}

// guarded prints a statement accessing a[index], when guard only if the
// index is below the array's length.
func (p *printer) guarded(a *ir.Array, index string, guard bool, stmt string) {
	if guard {
		p.line("if (%s < %s_len) %s", index, a.Name, stmt)
	} else {
		p.line("%s", stmt)
	}
}

// holds reports whether the enclosing ifs already ensure index < len(a):
// a condition, or a conjunct of one, says index < len(a); or index is
// x + c for a constant c, and conjuncts say x < len(a) and len(a) - x > d
// (or >= d+1) for a constant d >= c (then len(a) - x does not wrap, and
// neither does x + c).
func (p *printer) holds(a *ir.Array, index ir.Expr) bool {
	var conds []*ir.Binary
	for _, k := range p.known {
		if k.holds {
			conds = appendConjuncts(conds, k.cond)
		}
	}
	below := func(x ir.Expr) bool { // a condition says x < len(a)
		for _, b := range conds {
			if l, ok := b.Y.(*ir.Len); ok && b.Op == ir.Lt && l.Array == a && simplify.Same(b.X, x) {
				return true
			}
		}
		return false
	}
	if below(index) {
		return true
	}
	x, c, ok := plusConst(index)
	if !ok || !below(x) {
		return false
	}
	for _, b := range conds {
		d, isConst := b.Y.(*ir.Const)
		room, isSub := b.X.(*ir.Binary)
		if !isConst || !isSub || room.Op != ir.Sub || room.Type() != ir.Uint32 || !simplify.Same(room.Y, x) {
			continue
		}
		if l, ok := room.X.(*ir.Len); !ok || l.Array != a {
			continue
		}
		switch bound := d.Value.Uint(); b.Op {
		case ir.Gt:
			if bound >= c {
				return true
			}
		case ir.Ge:
			if bound > c {
				return true
			}
		}
	}
	return false
}

// appendConjuncts appends to conds the comparisons that cond, a
// condition or a && of conditions, says all hold.
func appendConjuncts(conds []*ir.Binary, cond ir.Expr) []*ir.Binary {
	b, ok := cond.(*ir.Binary)
	if !ok {
		return conds
	}
	if b.Op == ir.And && b.Type() == ir.Bool {
		return appendConjuncts(appendConjuncts(conds, b.X), b.Y)
	}
	return append(conds, b)
}

// plusConst returns x and c when e is x + c, a uint32 sum with a constant.
func plusConst(e ir.Expr) (x ir.Expr, c uint64, ok bool) {
	b, isBin := e.(*ir.Binary)
	if !isBin || b.Op != ir.Add || b.Type() != ir.Uint32 {
		return nil, 0, false
	}
	if k, isConst := b.Y.(*ir.Const); isConst {
		return b.X, k.Value.Uint(), true
	}
	if k, isConst := b.X.(*ir.Const); isConst {
		return b.Y, k.Value.Uint(), true
	}
	return nil, 0, false
}

// assume records that cond holds in the statements printed until the
// matching release, when it reads no memory (which stores may change).
func (p *printer) assume(cond ir.Expr) {
	k := &knownCondition{cond: cond, vars: map[*ir.Var]bool{}, holds: true}
	ir.WalkExpr(cond, func(e ir.Expr) {
		switch e := e.(type) {
		case *ir.Var:
			k.vars[e] = true
		case *ir.Load, *ir.Invalid:
			k.holds = false
		}
	})
	p.known = append(p.known, k)
}

// release drops the condition assume recorded last.
func (p *printer) release() { p.known = p.known[:len(p.known)-1] }

// forget drops the known conditions that read a variable changed says is
// assigned from here on.
func (p *printer) forget(changed func(*ir.Var) bool) {
	for _, k := range p.known {
		for v := range k.vars {
			if k.holds && changed(v) {
				k.holds = false
			}
		}
	}
}

// ifChain prints an if, with else-if for an else part that is one if.
func (p *printer) ifChain(s *ir.If) {
	e := p.prepare([]ir.Expr{s.Cond})
	p.line("if (%s) {", expr(e[0]))
	for {
		p.assume(s.Cond)
		p.block(s.Then)
		p.release()
		if len(s.Else) == 0 {
			p.line("}")
			return
		}
		if next, ok := s.Else[0].(*ir.If); ok && len(s.Else) == 1 {
			if h := hoist([]ir.Expr{next.Cond}, nil); len(h.temps) == 0 {
				p.line("} else if (%s) {", expr(h.exprs[0]))
				s = next
				continue
			}
		}
		p.line("} else {")
		p.block(s.Else)
		p.line("}")
		return
	}
}

// assignedVars returns the variables body assigns: by Assign, or as the
// result of an atomic, a shuffle, a ballot or a match.
func assignedVars(body []ir.Stmt) map[*ir.Var]bool {
	vars := map[*ir.Var]bool{}
	ir.WalkStmts(body, func(s ir.Stmt) bool {
		switch s := s.(type) {
		case *ir.Assign:
			vars[s.Var] = true
		case *ir.Atomic:
			if s.Result != nil {
				vars[s.Result] = true
			}
		case *ir.Shuffle:
			vars[s.Result] = true
		case *ir.Ballot:
			vars[s.Result] = true
		case *ir.MatchAny:
			vars[s.Result] = true
		}
		return true
	})
	return vars
}

// assigned reports whether body assigns v anywhere.
func assigned(body []ir.Stmt, v *ir.Var) bool {
	found := false
	ir.WalkStmts(body, func(s ir.Stmt) bool {
		if a, ok := s.(*ir.Assign); ok && a.Var == v {
			found = true
		}
		return !found
	})
	return found
}

// helpers returns the C definitions of the helper functions the operations
// of k call (Spelling.Helper), each once, sorted.
func helpers(k *ir.Kernel) []string {
	set := map[string]bool{}
	visit := func(e ir.Expr) {
		var o *ir.Operation
		switch e := e.(type) {
		case *ir.Unary:
			o = e.Op.Operation()
		case *ir.Binary:
			o = e.Op.Operation()
		case *ir.Ternary:
			o = e.Op.Operation()
		}
		if sp, ok := spelling(o, firstOperand(e)); ok && sp.Helper != "" {
			set[sp.Helper] = true
		}
	}
	ir.WalkStmts(k.Body, func(s ir.Stmt) bool {
		if a, ok := s.(*ir.Atomic); ok {
			if _, def, ok := orderedHelper(a); ok {
				set[def] = true
			}
		}
		if b, ok := s.(*ir.Ballot); ok && b.Agree {
			set[agreeHelper] = true
		}
		if st, ok := s.(*ir.Store); ok && st.Async {
			set[asyncCopyHelpers[st.Array.Elem.Size()]] = true
			set[asyncWaitHelper] = true
		}
		for _, e := range ir.Exprs(s) {
			ir.WalkExpr(e, visit)
			ir.WalkExpr(e, func(e ir.Expr) {
				if c, ok := e.(*ir.Convert); ok {
					if h, ok := storageConversion[[2]ir.Type{c.X.Type(), c.To}]; ok {
						set[h.definition] = true
					}
					if h, ok := saturatingConversion[[2]ir.Type{c.X.Type(), c.To}]; ok {
						set[h.definition] = true
					}
				}
			})
		}
		return true
	})
	var out []string
	for h := range set {
		out = append(out, h)
	}
	sort.Strings(out)
	return out
}

// firstOperand returns the first operand of an operation, or e itself.
func firstOperand(e ir.Expr) ir.Expr {
	if c := ir.Children(e); len(c) > 0 {
		return c[0]
	}
	return e
}

// paramType returns the C type of the elements of a, a global array
// parameter: const for an input.
func paramType(a *ir.Array) string {
	if a.Access == ir.Input {
		return "const " + a.Elem.C()
	}
	return a.Elem.C()
}
