package arrays

import (
	"github.com/obsidian-go/obsidian/dsl"
)

// WarpAllEqual reports, in every lane, whether the lanes below valid (a
// count, the same in every lane of the warp, as for WarpScan) all hold the
// same key: true when valid is 0 or 1. It is one shuffle from lane 0 and
// one ballot, and runs where WarpScan does.
func WarpAllEqual[K dsl.Integer](t *dsl.Thread, key dsl.Exp[K], valid dsl.U32) dsl.Bool {
	first := dsl.Shuffle(t, dsl.ShuffleIdx, key, dsl.N(0))
	return dsl.Let(t, dsl.All(t, dsl.LaneIdx.Ge(valid).Or(key.Eq(first)))).Exp
}

// WarpAnyNeighboursEqual reports, in every lane, whether two consecutive
// lanes below valid hold the same key: one shuffle up and one ballot, run
// where WarpScan runs. On keys of a wide range it is almost always false;
// where a few keys hold most of the lanes (hot keys) it is almost always
// true, whatever the lanes' order, which makes it a cheap test of whether
// combining the lanes by key pays.
func WarpAnyNeighboursEqual[K dsl.Integer](t *dsl.Thread, key dsl.Exp[K], valid dsl.U32) dsl.Bool {
	lane := dsl.LaneIdx
	before := dsl.Shuffle(t, dsl.ShuffleUp, key, dsl.N(1))
	pair := lane.Ge(dsl.N(1)).And(lane.Lt(valid)).And(before.Eq(key))
	return dsl.Let(t, dsl.Any(t, pair)).Exp
}

// WarpAggregateHot is WarpAggregate that pays for the grouping only where
// lanes share keys. It splits the lanes below valid into groups of equal
// keys, each led by its lowest lane, which gets the fold of the group's
// values x under op in lane order (the other lanes' leader is false and
// their total unspecified), choosing the groups by two warp-wide tests:
//
//   - all the lanes hold one key (WarpAllEqual): one group, reduced with
//     WarpReduce's five shuffles, and no dsl.MatchAny;
//   - else, two neighbouring lanes hold one key (WarpAnyNeighboursEqual):
//     WarpAggregate's groups, one per distinct key;
//   - else every lane is a group of its own, its total its own x.
//
// A key may then lead more than one group (in the last case, when equal
// keys sit in lanes that are not neighbours), but every lane's value is in
// exactly one total, so a histogram or a bitset built from the leaders'
// totals is exact. The tests cost a shuffle and a ballot each, about what
// WarpAggregateRuns costs on keys that all differ: keys of a wide range
// pay little more than one update per lane, and keys most of whose lanes
// hold a few values (hot keys, in any order) take one update per distinct
// key of the warp, so that atomics on hot cells do not serialise. It runs
// where WarpScan does.
func WarpAggregateHot[K dsl.Integer, T dsl.Number](t *dsl.Thread, op Op[T], key dsl.Exp[K], x dsl.Exp[T],
	valid dsl.U32) (leader dsl.Bool, total dsl.Exp[T]) {
	op = op.orInvalid("WarpAggregateHot")
	holds := dsl.Let(t, dsl.LaneIdx.Lt(valid))
	lead := dsl.Let(t, holds.Exp)
	v := dsl.Let(t, x)
	t.IfElse(WarpAllEqual(t, key, valid), func(t *dsl.Thread) {
		v.Set(WarpReduce(t, op, x, valid))
		lead.Set(holds.And(dsl.LaneIdx.Eq(dsl.N(0))))
	}, func(t *dsl.Thread) {
		t.If(WarpAnyNeighboursEqual(t, key, valid), func(t *dsl.Thread) {
			l, sum := WarpAggregate(t, op, key, x, valid)
			lead.Set(l)
			v.Set(sum)
		})
	})
	return lead.Exp, v.Exp
}
