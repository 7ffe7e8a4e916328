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
