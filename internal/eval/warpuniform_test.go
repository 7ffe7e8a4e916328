package eval

import (
	"testing"

	"github.com/obsidian-go/obsidian/ir"
)

// TestLanesMustAgreeOnWarpConditions runs a ballot under an if, a loop
// and a while whose condition (lane < 16, a lane's index) differs between
// the lanes of the warp. Verify rejects such kernels; run anyway, the
// evaluator must report the condition at its own line, not only the
// ballot's inactive lanes.
func TestLanesMustAgreeOnWarpConditions(t *testing.T) {
	lane := special(ir.LaneIdx)
	half := bin(ir.Lt, lane, u32(16))
	for _, tt := range []struct {
		name  string
		ctl   func(body ...ir.Stmt) ir.Stmt
		what  string
		holds string // the lanes whose condition holds (whose count is not 0)
	}{
		{"if", func(body ...ir.Stmt) ir.Stmt { return &ir.If{Cond: half, Then: body, Pos: at(60)} }, "an if", "0x0000ffff"},
		{"else", func(body ...ir.Stmt) ir.Stmt {
			return &ir.If{Cond: half, Then: []ir.Stmt{}, Else: body, Pos: at(60)}
		}, "an if", "0x0000ffff"},
		{"for", func(body ...ir.Stmt) ir.Stmt {
			return &ir.For{Var: index("j"), Count: bin(ir.Shr, lane, u32(4)), Body: body, Pos: at(60)}
		}, "a loop", "0xffff0000"},
		{"while", func(body ...ir.Stmt) ir.Stmt { return &ir.While{Cond: half, Body: body, Pos: at(60)} }, "a loop", "0x0000ffff"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := global("out", ir.Uint32, ir.Output)
			i, r := index("i"), index("r")
			k := kernel(32, []*ir.Array{out}, nil, forAll(ir.BlockThreads, i, u32(32), 59,
				decl(r, u32(0), 59),
				tt.ctl(&ir.Ballot{Result: r, Pred: half, Pos: at(61)}, &ir.Assign{Var: r, Value: u32(7), Pos: at(62)}),
				st(out, i, r, 63)))
			err := Launch(k, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Uint32, 32)))
			wantError(t, err, "user.go:60", "the lanes of a warp disagree on the condition of "+tt.what,
				"holds in lanes "+tt.holds+" of the active 0xffffffff")
		})
	}
}

// TestWarpConditionTheLanesAgreeOn runs ballots under an if, a loop and a
// while whose condition every lane of the warp agrees on: no error.
func TestWarpConditionTheLanesAgreeOn(t *testing.T) {
	out := global("out", ir.Uint32, ir.Output)
	i, r, j := index("i"), index("r"), index("j")
	odd := bin(ir.Lt, special(ir.LaneIdx), u32(16))
	ballot := func(line int) ir.Stmt { return &ir.Ballot{Result: r, Pred: odd, Pos: at(line)} }
	k := kernel(64, []*ir.Array{out}, nil, forAll(ir.BlockThreads, i, u32(64), 59,
		decl(r, u32(0), 59),
		&ir.If{Cond: bin(ir.Eq, special(ir.WarpIdx), u32(1)), Then: []ir.Stmt{ballot(61)}, Pos: at(60)},
		&ir.For{Var: j, Count: special(ir.WarpIdx), Body: []ir.Stmt{ballot(63)}, Pos: at(62)},
		&ir.While{Cond: bin(ir.Eq, r, u32(0)), Body: []ir.Stmt{ballot(65)}, Pos: at(64)},
		st(out, i, r, 66)))
	buf := NewBuffer(ir.Uint32, 64)
	if err := Launch(k, Config{Blocks: 1}, bufArgs(buf)); err != nil {
		t.Fatal(err)
	}
	for l, x := range u32s(buf) {
		if x != 0xffff {
			t.Fatalf("out[%d] = %#x, want the ballot 0xffff", l, x)
		}
	}
}
