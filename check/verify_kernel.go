package check

import (
	"math"

	"github.com/obsidian-go/obsidian/ir"
)

// kernel checks the kernel's name, block size, parameters and shared arrays.
func (v *verifier) kernel() {
	k := v.k
	if msg := checkName(k.Name); msg != "" {
		v.errorf(k.Pos, "kernel %s: %s", k.Name, msg)
	} else {
		// The kernel's name is a name of its printed code too: a parameter
		// or a variable of that name would hide the kernel in its own body.
		v.names[k.Name] = "kernel " + k.Name
	}
	if k.Threads < ir.WarpSize || k.Threads > 1024 || k.Threads%ir.WarpSize != 0 {
		v.errorf(k.Pos, "kernel %s has %d threads per block; CUDA needs 1 to 1024, and a whole number of "+
			"warps (a multiple of 32)", k.Name, k.Threads)
	}
	if k.MinBlocks < 0 || k.MinBlocks*k.Threads > MaxThreadsPerMultiprocessor {
		v.errorf(k.Pos, "kernel %s asks for %d blocks of %d threads per multiprocessor; a multiprocessor holds "+
			"at most %d threads", k.Name, k.MinBlocks, k.Threads, MaxThreadsPerMultiprocessor)
	}
	seen := map[string]bool{}
	for i, p := range k.Params {
		switch {
		case (p.Array == nil) == (p.Scalar == nil):
			v.errorf(k.Pos, "parameter %d of kernel %s must be either an array or a scalar", i+1, k.Name)
			continue
		case seen[p.Name()]:
			pos := k.Pos
			if p.Array != nil {
				pos = p.Array.Pos
			}
			v.errorf(pos, "kernel %s has two parameters named %s", k.Name, p.Name())
			continue
		}
		seen[p.Name()] = true
		if p.Scalar != nil {
			v.scalarParam(p.Scalar)
		} else {
			v.globalArray(p.Array)
		}
	}
	for _, a := range k.Shared {
		v.sharedArray(a)
	}
	for _, a := range k.Locals {
		v.localArray(a)
	}
	v.constTables(k.Constants)
}

// MaxConstantBytes bounds the bytes of a kernel's constant tables
// together: CUDA's constant memory holds 64 KiB.
const MaxConstantBytes = 64 << 10

// constTables checks the kernel's constant tables: each one's elements
// are its Values, all of its type, and they fit in constant memory
// together.
func (v *verifier) constTables(tables []*ir.Array) {
	total := 0
	for _, a := range tables {
		if a == nil {
			v.errorf(v.k.Pos, "kernel %s has a nil constant table", v.k.Name)
			continue
		}
		switch {
		case a.Space != ir.Constant:
			v.errorf(a.Pos, "array %s is listed as a constant table but is in %v memory", a.Name, a.Space)
		case a.Access != ir.Input:
			v.errorf(a.Pos, "constant table %s is %v; constant tables are read-only (input)", a.Name, a.Access)
		case !a.Elem.Valid():
			v.errorf(a.Pos, "constant table %s has no valid element type (%v)", a.Name, a.Elem)
		case a.Size <= 0:
			v.errorf(a.Pos, "constant table %s has %d elements; it needs at least one", a.Name, a.Size)
		case len(a.Values) != a.Size:
			v.errorf(a.Pos, "constant table %s has %d elements but %d values", a.Name, a.Size, len(a.Values))
		default:
			for i, x := range a.Values {
				if x.T != a.Elem || x.Bits&^a.Elem.Mask() != 0 {
					v.errorf(a.Pos, "element %d of constant table %s, a table of %v, is %v of type %v", i, a.Name,
						a.Elem, x, x.T)
					break
				}
				if x.T.IsFloat() && math.IsNaN(x.Float()) {
					v.errorf(a.Pos, "element %d of constant table %s is a NaN, which a constant initializer "+
						"cannot spell bit for bit: keep the bits in a table of unsigned integers and convert "+
						"them with dsl.Float32FromBits or dsl.Float64FromBits", i, a.Name)
					break
				}
			}
			total += a.Bytes()
			if total > MaxConstantBytes {
				v.errorf(a.Pos, "constant table %s of %d bytes makes kernel %s's constant tables %d bytes; "+
					"constant memory holds %d", a.Name, a.Bytes(), v.k.Name, total, MaxConstantBytes)
			}
		}
		v.name(a.Pos, a.Name, "constant table "+a.Name)
		v.arrays[a] = true
	}
}

// MaxLocalBytes bounds the bytes of one local array: a thread's arrays live
// in registers or in CUDA's local memory, of which a thread has 512 KiB; an
// array this large is already far slower than shared memory.
const MaxLocalBytes = 16 << 10

// MaxThreadsPerMultiprocessor is the most threads a multiprocessor holds
// at once (2048 on every GPU since Maxwell but the RTX ones, which hold
// fewer and so simply run fewer blocks).
const MaxThreadsPerMultiprocessor = 2048

func (v *verifier) localArray(a *ir.Array) {
	if a == nil {
		v.errorf(v.k.Pos, "kernel %s has a nil local array", v.k.Name)
		return
	}
	switch {
	case a.Space != ir.Local:
		v.errorf(a.Pos, "array %s is listed as local but is not in local memory", a.Name)
	case !a.Elem.Valid():
		v.errorf(a.Pos, "local array %s has no valid element type (%v)", a.Name, a.Elem)
	case a.Size <= 0:
		v.errorf(a.Pos, "local array %s has %d elements; it needs at least one", a.Name, a.Size)
	case a.Size > MaxLocalBytes/a.Elem.Size():
		v.errorf(a.Pos, "local array %s has %d elements of %v; a thread's array may have at most %d bytes",
			a.Name, a.Size, a.Elem, MaxLocalBytes)
	case a.Align != 0:
		v.errorf(a.Pos, "local array %s: %v", a.Name, CheckAlign(a.Space, a.Elem, a.Align))
	}
	v.name(a.Pos, a.Name, "local array "+a.Name)
	v.arrays[a] = true
}

func (v *verifier) scalarParam(s *ir.Var) {
	if !s.T.Valid() {
		v.errorf(v.k.Pos, "parameter %s has no valid type (%v)", s.Name, s.T)
	}
	v.name(v.k.Pos, s.Name, "parameter "+s.Name)
	v.params[s] = true
	v.declared[s] = true
	v.scopes[0][s] = true
}

func (v *verifier) globalArray(a *ir.Array) {
	switch {
	case a.Space != ir.Global:
		v.errorf(a.Pos, "array parameter %s is not in global memory", a.Name)
	case a.Access < ir.Input || a.Access > ir.ReadWrite:
		v.errorf(a.Pos, "array parameter %s has no valid access mode", a.Name)
	case !a.Elem.Valid():
		v.errorf(a.Pos, "array parameter %s has no valid element type (%v)", a.Name, a.Elem)
	case a.Align != 0:
		if err := CheckAlign(a.Space, a.Elem, a.Align); err != nil {
			v.errorf(a.Pos, "array parameter %s: %v", a.Name, err)
		}
	}
	v.name(a.Pos, a.Name, "array parameter "+a.Name)
	v.name(a.Pos, a.Name+"_len", "the length of array "+a.Name)
	v.arrays[a] = true
}

func (v *verifier) sharedArray(a *ir.Array) {
	if a == nil {
		v.errorf(v.k.Pos, "kernel %s has a nil shared array", v.k.Name)
		return
	}
	switch {
	case a.Space != ir.Shared:
		v.errorf(a.Pos, "array %s is listed as shared but is not in shared memory", a.Name)
	case !a.Elem.Valid():
		v.errorf(a.Pos, "shared array %s has no valid element type (%v)", a.Name, a.Elem)
	case a.Size <= 0:
		v.errorf(a.Pos, "shared array %s has %d elements; it needs at least one", a.Name, a.Size)
	case a.Held:
		v.errorf(a.Pos, "shared array %s is marked Held, which only a local array may be", a.Name)
	case a.Align != 0:
		v.errorf(a.Pos, "shared array %s: %v", a.Name, CheckAlign(a.Space, a.Elem, a.Align))
	}
	v.name(a.Pos, a.Name, "shared array "+a.Name)
	v.arrays[a] = true
}

// name checks that name is a usable C identifier not used before in the
// kernel, and records it as belonging to what.
func (v *verifier) name(pos ir.Pos, name, what string) {
	if msg := checkName(name); msg != "" {
		v.errorf(pos, "%s: %s", what, msg)
		return
	}
	if prev, ok := v.names[name]; ok {
		v.errorf(pos, "%s has the name %s of %s; names in a kernel must be distinct", what, name, prev)
		return
	}
	v.names[name] = what
}

// blocks checks the kernel's block count expression: an integer computed on
// the host from constants, scalar parameters and lengths of global arrays.
func (v *verifier) blocks() {
	e := v.k.Blocks
	if e == nil {
		return
	}
	if bad := NotOnHost(v.k, e); bad != "" {
		v.errorf(v.k.Pos, "the block count of kernel %s may use only constants, scalar parameters and "+
			"lengths of array parameters; it uses %s", v.k.Name, bad)
		return
	}
	if t, ok := v.expr(e, v.k.Pos); ok && !t.IsInteger() {
		v.errorf(v.k.Pos, "the block count of kernel %s has type %v; it must be an integer", v.k.Name, t)
	}
}

// NotOnHost returns what in e the host cannot compute before a launch of
// k (a variable that is not a scalar parameter of k, a special register, a
// load, the length of an array that is not a parameter), or "" when e uses
// only constants, k's scalar parameters and lengths of its array
// parameters, as the number of blocks a launch needs must.
func NotOnHost(k *ir.Kernel, e ir.Expr) string {
	params := map[*ir.Var]bool{}
	arrays := map[*ir.Array]bool{}
	for _, p := range k.Params {
		switch {
		case p.Scalar != nil:
			params[p.Scalar] = true
		case p.Array != nil:
			arrays[p.Array] = true
		}
	}
	bad := ""
	ir.WalkExpr(e, func(e ir.Expr) {
		if bad != "" {
			return
		}
		switch e := e.(type) {
		case *ir.Var:
			if !params[e] {
				bad = "variable " + e.Name
			}
		case *ir.Len:
			if e.Array == nil || e.Array.Space != ir.Global || !arrays[e.Array] {
				bad = "the length of an array that is not a parameter"
			}
		case *ir.Special:
			bad = e.Kind.String()
		case *ir.Load:
			bad = "a load of array " + arrayName(e.Array)
		}
	})
	return bad
}

func arrayName(a *ir.Array) string {
	if a == nil {
		return "<nil>"
	}
	return a.Name
}
