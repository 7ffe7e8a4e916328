package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// reserveCells is the number of counters of the WarpReserveHot tests.
const reserveCells = 64

// reserveThreads is the block of the WarpReserveHot kernels: four warps,
// so that warps add to the same counters at once.
const reserveThreads = 128

// reservation is an input of WarpReserveHot: a cell for every lane, a
// valid count for every warp and the counters' values before.
type reservation struct {
	cells, valids, before []uint32
}

// newReservation draws a reservation of blocks blocks of reserveThreads
// lanes: cells by draw, folded into reserveCells, valid counts of 0 to 32
// (mostly 32), counters of any start.
func newReservation(r *rand.Rand, draw keyDraw[uint32], blocks int) reservation {
	var v reservation
	for range blocks * reserveThreads {
		v.cells = append(v.cells, draw(r)%reserveCells)
	}
	for range blocks * reserveThreads / ir.WarpSize {
		valid := uint32(ir.WarpSize)
		if r.IntN(3) == 0 {
			valid = uint32(r.IntN(ir.WarpSize + 1))
		}
		v.valids = append(v.valids, valid)
	}
	for range blocks * reserveCells {
		v.before = append(v.before, r.Uint32N(1<<20))
	}
	return v
}

// reserveKernel returns the kernel that runs WarpReserveHot for every lane
// on counters in shared memory (loaded from before, stored to after) or,
// with global, on the global counters after (set to before by the host),
// a block's own reserveCells each, and writes every lane's slot.
func reserveKernel(global bool) *dsl.Kernel {
	k := dsl.NewKernel("reserve", reserveThreads)
	cells, valids, before := dsl.Input[uint32](k, "cells"), dsl.Input[uint32](k, "valids"), dsl.Input[uint32](k, "before")
	after, slots := dsl.InOut[uint32](k, "after"), dsl.Output[uint32](k, "slots")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.CeilDiv(cells.Len(), dsl.N(reserveThreads)), func(b *dsl.Block, bid dsl.U32) {
			base := dsl.Let(b, bid.Mul(dsl.N(reserveCells))).Exp
			var shared dsl.Array[uint32]
			if !global {
				shared = dsl.Shared[uint32](b, reserveCells)
				b.ForAll(dsl.N(reserveCells), func(t *dsl.Thread, c dsl.U32) { shared.Store(t, c, before.At(base.Add(c))) })
				b.Sync()
			}
			b.ForAll(dsl.N(reserveThreads), func(t *dsl.Thread, tid dsl.U32) {
				i := dsl.Let(t, bid.Mul(dsl.N(reserveThreads)).Add(tid)).Exp
				valid := valids.At(bid.Mul(dsl.N(reserveThreads / ir.WarpSize)).Add(dsl.WarpIdx))
				cell := cells.At(i)
				if global {
					slots.Store(t, i, arrays.WarpReserveHot(t, after, base.Add(cell), valid))
					return
				}
				slots.Store(t, i, arrays.WarpReserveHot(t, shared, cell, valid))
			})
			if !global {
				b.Sync()
				b.ForAll(dsl.N(reserveCells), func(t *dsl.Thread, c dsl.U32) { after.Store(t, base.Add(c), shared.At(c)) })
			}
		})
	})
	return k
}

// run runs WarpReserveHot on v on dev, its counters shared or global, and
// returns the counters after and every lane's slot.
func (v reservation) run(dev runtime.Device, global bool) (after, slots []uint32, err error) {
	// cells, valids, before, the counters after (from before) and the slots.
	var bufs []*runtime.Buffer[uint32]
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	for _, xs := range [][]uint32{v.cells, v.valids, v.before, v.before, make([]uint32, len(v.cells))} {
		b, err := runtime.FromSlice(dev, xs)
		if err != nil {
			return nil, nil, err
		}
		bufs = append(bufs, b)
	}
	afterBuf, slotBuf := bufs[3], bufs[4]
	if err := launch(dev, reserveKernel(global), bufs[0], bufs[1], bufs[2], afterBuf, slotBuf); err != nil {
		return nil, nil, err
	}
	if after, err = afterBuf.ToSlice(); err != nil {
		return nil, nil, err
	}
	slots, err = slotBuf.ToSlice()
	return after, slots, err
}

// check returns what breaks WarpReserveHot's law in after and slots, or
// "": every counter grows by the number of valid lanes holding its cell,
// their slots are the values from its start up to its end, each once, and
// the lanes past their warp's valid count get 0.
func (v reservation) check(after, slots []uint32) string {
	taken := map[[2]uint32][]uint32{} // (block, cell) → slots
	for i, cell := range v.cells {
		if uint32(i%ir.WarpSize) >= v.valids[i/ir.WarpSize] {
			if slots[i] != 0 {
				return fmt.Sprintf("lane %d is past its warp's valid count %d and got slot %d, want 0", i, v.valids[i/ir.WarpSize], slots[i])
			}
			continue
		}
		block := uint32(i / reserveThreads)
		taken[[2]uint32{block, cell}] = append(taken[[2]uint32{block, cell}], slots[i])
	}
	for c := range v.before {
		block, cell := uint32(c/reserveCells), uint32(c%reserveCells)
		got := taken[[2]uint32{block, cell}]
		slices.Sort(got)
		want := make([]uint32, 0, len(got))
		for s := v.before[c]; s < after[c]; s++ {
			want = append(want, s)
		}
		if !slices.Equal(got, want) {
			return fmt.Sprintf("block %d, cell %d: counter from %d to %d, slots %v, want %v", block, cell, v.before[c], after[c], got, want)
		}
	}
	return ""
}

// reserveDraws are the cells the WarpReserveHot laws draw: hot cells (a
// power law, two or five cells, all equal), sixteen cells, and any.
func reserveDraws() []keyDraw[uint32] {
	return []keyDraw[uint32]{powerLaw[uint32](1<<20, 8, 1), alphabet[uint32](2, 7), alphabet[uint32](5, 3),
		alphabet[uint32](1, 1), alphabet[uint32](16, 1), anyKey[uint32]}
}

// TestWarpReserveHotLaw checks on the CPU evaluator that WarpReserveHot
// gives the lanes of every cell the distinct slots from the counter's
// value before to its value after, which grows by their number, for
// counters in shared and in global memory, hot, few and any cells, and
// valid counts of 0 to 32.
func TestWarpReserveHotLaw(t *testing.T) {
	props := gopter.NewProperties(proptest.Parameters(t, 40))
	props.Property("slots", prop.ForAll(func(draw, blocks int, global bool, seed uint64) string {
		v := newReservation(rand.New(rand.NewPCG(seed, 0x5e7)), reserveDraws()[draw], blocks)
		after, slots, err := v.run(runtime.CPU(), global)
		if err != nil {
			return err.Error()
		}
		if msg := v.check(after, slots); msg != "" {
			return fmt.Sprintf("cells %v, valid %v: %s", v.cells, v.valids, msg)
		}
		return ""
	}, gen.IntRange(0, len(reserveDraws())-1), gen.IntRange(1, 3), gen.Bool(), gen.UInt64()))
	props.TestingRun(t)
}
