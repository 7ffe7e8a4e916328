package dsl

import "github.com/obsidian-go/obsidian/ir"

// LaneOf returns the lane of index i in its warp, i mod ir.WarpSize: the
// hardware lane of the thread that runs iteration i of a Block.ForAll,
// Warp.ForAll or Grid.ForAll, whose iterations start at warp boundaries.
func LaneOf(i U32) U32 { return i.And(N(ir.WarpSize - 1)) }

// WarpOf returns the warp of index i, i / ir.WarpSize: in a Block.ForAll,
// the warp of the block that runs iteration i (for i below the block size).
func WarpOf(i U32) U32 { return i.Shr(N(ir.LaneBits)) }

// CeilDiv returns n/m rounded up, without overflow (n + m - 1 would wrap
// for n near 2^32). A constant m of 0 is an error, as for Div.
func CeilDiv(n, m U32) U32 { return n.Div(m).Add(Cast[uint32](n.Rem(m).Ne(N(0)))) }

// Any returns whether pred holds in some lane of the warp: the same in
// every lane, so a condition under which the whole warp may shuffle. All
// ir.WarpSize lanes of the warp must take part, as for Ballot.
func Any(t *Thread, pred Bool) Bool { return Ballot(t, pred).Ne(N(0)) }

// All returns whether pred holds in every lane of the warp, the same in
// every lane, like Any.
func All(t *Thread, pred Bool) Bool { return Ballot(t, pred).Eq(N(fullWarp)) }

// fullWarp is the ballot of a warp whose every lane votes yes.
const fullWarp = uint32(1<<ir.WarpSize - 1)
