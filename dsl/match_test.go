package dsl_test

import (
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
)

// matchUniformKernel returns a kernel whose lanes shuffle under a
// condition on the MatchAny of a value read from lane 0, which every lane
// of the warp holds, so that the match is the whole warp in every lane;
// with perLane, on the MatchAny of each lane's own value instead, which
// may differ between the lanes. match is MatchAny or another function of
// the same kind (a value the same in every lane gives the whole warp).
func matchUniformKernel(perLane bool, match func(*dsl.Thread, dsl.U32) dsl.U32) *dsl.Kernel {
	k := dsl.NewKernel("matchUniform", 64)
	in := dsl.Input[uint32](k, "in")
	out := dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			b.ForAll(dsl.N(64), func(t *dsl.Thread, i dsl.U32) {
				x := dsl.Let(t, in.At(i))
				matched := x.Exp
				if !perLane {
					matched = dsl.Shuffle(t, dsl.ShuffleIdx, x.Exp, dsl.N(0))
				}
				peers := match(t, matched)
				r := dsl.Let(t, peers)
				t.If(peers.Eq(dsl.N(^uint32(0))), func(t *dsl.Thread) {
					r.Set(dsl.Shuffle(t, dsl.ShuffleXor, x.Exp, dsl.N(1)))
				})
				out.Store(t, i, r.Exp)
			})
		})
	})
	return k
}

// TestShuffleUnderMatchOfAWarpValue checks that the MatchAny of a value
// the same in every lane of the warp is a warp-uniform condition, under
// which the lanes may shuffle (each lane gets its neighbour's value), and
// that the MatchAny of the lanes' own values is not; the same for Agree.
func TestShuffleUnderMatchOfAWarpValue(t *testing.T) {
	matches := map[string]func(*dsl.Thread, dsl.U32) dsl.U32{
		"MatchAny": dsl.MatchAny[uint32],
		"Agree":    func(t *dsl.Thread, x dsl.U32) dsl.U32 { return dsl.Agree(t, x.And(dsl.N(1)).Ne(dsl.N(0))) },
	}
	for name, match := range matches {
		xs := make([]uint32, 64)
		for i := range xs {
			xs[i] = uint32(3 * i)
		}
		got, err := runOnCPU(matchUniformKernel(false, match), xs, len(xs))
		if err != nil {
			t.Fatal(name, err)
		}
		for i, x := range got {
			if want := uint32(3 * (i ^ 1)); x != want {
				t.Errorf("%s: out[%d] = %d, want %d", name, i, x, want)
			}
		}
		_, err = matchUniformKernel(true, match).Build()
		if err == nil || !strings.Contains(err.Error(), "a shuffle needs all 32 lanes of a warp, but here it is under an if") {
			t.Errorf("a shuffle under a condition on the %s of each lane's value: %v", name, err)
		}
	}
}
