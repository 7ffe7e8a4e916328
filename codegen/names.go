package codegen

import (
	"fmt"

	"github.com/obsidian-go/obsidian/ir"
)

// nameSupply names the locals codegen introduces: t0_, t1_, ..., skipping
// the names the kernel has. The names a user may choose never end in an
// underscore (check.CheckName); the printer names a grid-level or
// virtualised ForAll's 64-bit counter after its index with one, which
// counts as taken too.
type nameSupply struct {
	taken map[string]bool
	n     int
}

// newNameSupply returns a supply of names that k does not use.
func newNameSupply(k *ir.Kernel) *nameSupply {
	taken := map[string]bool{k.Name: true, "smem": true}
	for _, p := range k.Params {
		taken[p.Name()] = true
	}
	for _, list := range [][]*ir.Array{k.Shared, k.Locals, k.Constants} {
		for _, a := range list {
			taken[a.Name] = true
		}
	}
	ir.WalkStmts(k.Body, func(s ir.Stmt) bool {
		for _, v := range declared(s) {
			if v != nil {
				taken[v.Name] = true
			}
		}
		if f, ok := s.(*ir.ForAll); ok {
			taken[f.Var.Name+"_"] = true
		}
		return true
	})
	return &nameSupply{taken: taken}
}

// declared returns the variables s declares or writes (nil for an atomic
// without a result).
func declared(s ir.Stmt) []*ir.Var {
	var vs []*ir.Var
	switch s := s.(type) {
	case *ir.Decl:
		vs = append(vs, s.Var)
	case *ir.For:
		vs = append(vs, s.Var)
	case *ir.ForAll:
		vs = append(vs, s.Var)
	case *ir.Atomic:
		vs = append(vs, s.Result)
	case *ir.Shuffle:
		vs = append(vs, s.Result)
	case *ir.Ballot:
		vs = append(vs, s.Result)
	case *ir.MatchAny:
		vs = append(vs, s.Result)
	}
	return vs
}

// next returns a new name.
func (ns *nameSupply) next() string {
	for {
		name := fmt.Sprintf("t%d_", ns.n)
		ns.n++
		if !ns.taken[name] {
			ns.taken[name] = true
			return name
		}
	}
}
