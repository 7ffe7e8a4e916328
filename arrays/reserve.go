package arrays

import (
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// WarpReserveHot adds one to counters[cell] for every lane below valid (a
// count, the same in every lane of the warp, as for WarpScan) and returns
// in each such lane a slot of its own: the counter's value before the
// lane's own increment, as though the lanes had added one at a time in
// some order. The lanes of one cell get distinct slots, which with the
// counter's value before and after the call make up the range [before,
// after); the lanes at or above valid add nothing and get 0. It is the
// atomic fetch-and-add of a histogram that also places each key (an
// unstable partition's local offsets), paying, as WarpAggregateHot does,
// for grouping the lanes only where they share cells:
//
//   - all the lanes hold one cell (WarpAllEqual): lane 0 adds their number
//     and lane l takes the old value plus l;
//   - else, two neighbouring lanes hold one cell (WarpAnyNeighboursEqual):
//     the lanes are grouped by dsl.MatchAny, the lowest lane of each group
//     adds its size, and each lane takes the old value plus its rank in the
//     group;
//   - else each lane adds one on its own.
//
// Hot cells then take one atomic per warp, not one per lane. counters may
// be shared or global memory; the order of the slots among the lanes of a
// cell is unspecified when two or more warps, or lanes that are not
// neighbours, add to it at once. It runs where WarpScan does: in the
// Thread body of a ForAll that runs every lane of each warp, outside any
// condition that may differ between the lanes of a warp.
func WarpReserveHot(t *dsl.Thread, counters dsl.Array[uint32], cell, valid dsl.U32) dsl.U32 {
	lane := dsl.LaneIdx
	holds := dsl.Let(t, lane.Lt(valid))
	c := dsl.Let(t, cell)
	slot := dsl.Let(t, dsl.N(0))
	// reserve has the group's leader add the group's size and every lane
	// take the leader's old value plus its rank.
	reserve := func(t *dsl.Thread, size, rank, leader dsl.U32) {
		old := dsl.Let(t, dsl.N(0))
		t.If(holds.And(rank.Eq(dsl.N(0))), func(t *dsl.Thread) {
			old.Set(counters.Fetch(t, dsl.AtomicAdd, c.Exp, size))
		})
		taken := dsl.Shuffle(t, dsl.ShuffleIdx, old.Exp, leader).Add(rank)
		slot.Set(dsl.Select(holds.Exp, taken, dsl.N(0)))
	}
	t.IfElse(WarpAllEqual(t, c.Exp, valid), func(t *dsl.Thread) {
		reserve(t, valid.Min(dsl.N(ir.WarpSize)), lane, dsl.N(0))
	}, func(t *dsl.Thread) {
		t.IfElse(WarpAnyNeighboursEqual(t, c.Exp, valid), func(t *dsl.Thread) {
			peers := dsl.Let(t, dsl.MatchAny(t, c.Exp).And(dsl.Ballot(t, holds.Exp)))
			rank := dsl.Let(t, peers.And(lanesBelowMask(lane)).PopCount())
			leader := dsl.LaneOf(peers.FindFirstSet().Sub(dsl.N(1)))
			reserve(t, peers.PopCount(), rank.Exp, leader)
		}, func(t *dsl.Thread) {
			t.If(holds.Exp, func(t *dsl.Thread) { slot.Set(counters.Fetch(t, dsl.AtomicAdd, c.Exp, dsl.N(1))) })
		})
	})
	return slot.Exp
}
