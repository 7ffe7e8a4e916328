package arrays_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
)

// tblLookKernel returns a kernel that permutes its input by a table held
// as a constant table (the thesis' tblLook run by executeTab) and writes
// the result.
func tblLookKernel(table []uint32) *dsl.Kernel {
	k := dsl.NewKernel("tblLook", 64)
	tab := arrays.FromArray(dsl.ConstTable(k, "perm", table))
	in := dsl.Input[uint32](k, "input")
	out := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		a := arrays.Take(dsl.N(uint32(len(table))), arrays.FromArray(in))
		arrays.WriteTo(g, out, arrays.ToPush[*dsl.Grid](arrays.TblLook(tab, a)))
	})
	return k
}

// TestTblLookConstTable checks TblLook through a random permutation held
// in a constant table against Go's indexing, in the evaluator.
func TestTblLookConstTable(t *testing.T) {
	props := gopter.NewProperties(proptest.Parameters(t, 20))
	props.Property("out[i] = in[table[i]]", prop.ForAll(func(n int, seed int64) bool {
		table := make([]uint32, n)
		for i := range table {
			table[i] = uint32(i)
		}
		r := rand.New(rand.NewPCG(uint64(seed), 0x7b1))
		r.Shuffle(n, func(i, j int) { table[i], table[j] = table[j], table[i] })
		kern, err := tblLookKernel(table).Build()
		if err != nil {
			t.Fatal(err)
		}
		in, out := eval.NewBuffer(ir.Uint32, n), eval.NewBuffer(ir.Uint32, n)
		for i := range n {
			in.Set(i, ir.UintValue(ir.Uint32, r.Uint64()))
		}
		if err := eval.Launch(kern, eval.Config{Blocks: 2}, []eval.Arg{{Buffer: in}, {Buffer: out}}); err != nil {
			t.Fatal(err)
		}
		for i, j := range table {
			if out.Get(i) != in.Get(int(j)) {
				return false
			}
		}
		return true
	}, gen.IntRange(1, 700), gen.Int64()))
	props.TestingRun(t)
}

// TestTblLookShortConstTable checks that a constant table shorter than
// the array is an error at the caller's line: its length is a constant.
func TestTblLookShortConstTable(t *testing.T) {
	k := dsl.NewKernel("bad", 64)
	tab := arrays.FromArray(dsl.ConstTable(k, "perm", []uint32{2, 1, 0}))
	in := dsl.Input[uint32](k, "input")
	out := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		looked := arrays.TblLook(tab, arrays.Take(dsl.N(4), arrays.FromArray(in)))
		arrays.WriteTo(g, out, arrays.ToPush[*dsl.Grid](looked))
	})
	_, err := k.Build()
	if err == nil || !strings.Contains(err.Error(), "TblLook of an array of 4 elements through a table of 3") ||
		!strings.Contains(err.Error(), "tbllook_test.go:") {
		t.Fatalf("Build error %v, want the short table at this file's line", err)
	}
}
