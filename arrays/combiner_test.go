package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
)

// combinerThreads is the block size of combinerKernel.
const combinerThreads = 64

// combinerKernel returns a kernel that folds, under op, the value of every
// key of keys into table[key % len(table)] through a Combiner of slots
// slots and probes probes per block (each block taking combinerThreads*4
// consecutive keys, four a thread), spilling to the table. It counts the
// spills in spills[0] and the flushed slots in flushed[0].
func combinerKernel(slots, probes int, op dsl.AtomicOp) *dsl.Kernel {
	k := dsl.NewKernel("combine", combinerThreads)
	keys := dsl.Input[uint32](k, "keys")
	vals := dsl.Input[uint32](k, "vals")
	table := dsl.InOut[uint32](k, "table")
	spills := dsl.InOut[uint32](k, "spills")
	flushed := dsl.InOut[uint32](k, "flushed")
	const perBlock = combinerThreads * 4
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.CeilDiv(keys.Len(), dsl.N(perBlock)), func(b *dsl.Block, blk dsl.U32) {
			c := arrays.NewCombiner[uint32](b, slots, probes, op, dsl.N(0))
			b.ForAll(dsl.N(combinerThreads), func(t *dsl.Thread, tid dsl.U32) {
				t.For(dsl.N(4), func(t *dsl.Thread, j dsl.U32) {
					i := dsl.Let(t, blk.Mul(dsl.N(perBlock)).Add(j.Mul(dsl.N(combinerThreads))).Add(tid))
					t.If(i.Lt(keys.Len()), func(t *dsl.Thread) {
						key := dsl.Let(t, keys.At(i.Exp))
						v := dsl.Let(t, vals.At(i.Exp))
						c.Add(t, key.Exp, v.Exp, func(t *dsl.Thread) {
							table.Atomic(t, op, key.Rem(table.Len()), v.Exp)
							spills.Atomic(t, dsl.AtomicAdd, dsl.N(0), dsl.N(1))
						})
					})
				})
			})
			c.Flush(b, func(t *dsl.Thread, key dsl.U32, v dsl.U32) {
				table.Atomic(t, op, key.Rem(table.Len()), v)
				flushed.Atomic(t, dsl.AtomicAdd, dsl.N(0), dsl.N(1))
			})
		})
	})
	return k
}

// combined runs combinerKernel on dev and returns the table and the
// numbers of spills and flushed slots.
func combined(dev runtime.Device, k *dsl.Kernel, keys, vals []uint32, cells int) (table []uint32, spills, flushed uint32, err error) {
	bufs := make([]*runtime.Buffer[uint32], 5)
	for i, s := range [][]uint32{keys, vals, make([]uint32, cells), {0}, {0}} {
		if bufs[i], err = runtime.FromSlice(dev, s); err != nil {
			return nil, 0, 0, err
		}
		defer bufs[i].Free()
	}
	if err := launch(dev, k, bufs[0], bufs[1], bufs[2], bufs[3], bufs[4]); err != nil {
		return nil, 0, 0, err
	}
	out := make([][]uint32, 3)
	for i := range out {
		if out[i], err = bufs[2+i].ToSlice(); err != nil {
			return nil, 0, 0, err
		}
	}
	return out[0], out[1][0], out[2][0], nil
}

// combinerOps are the folds the Combiner laws run, with their Go model.
var combinerOps = []struct {
	name  string
	op    dsl.AtomicOp
	apply func(x, y uint32) uint32
}{
	{"add", dsl.AtomicAdd, func(x, y uint32) uint32 { return x + y }},
	{"or", dsl.AtomicOr, func(x, y uint32) uint32 { return x | y }},
	{"max", dsl.AtomicMax, func(x, y uint32) uint32 { return max(x, y) }},
}

// TestCombinerFoldsEveryValueOnce checks, on random keys (hot, few, any,
// and EmptyKey among them) and table sizes of 1 to 256 slots with 1 to 4
// probes, that folding through a Combiner and flushing gives the table a
// Go fold of every key's values gives, and that a block flushes at most
// one slot per distinct key and spills none when its distinct keys fit.
func TestCombinerFoldsEveryValueOnce(t *testing.T) {
	slotChoices := []int{1, 2, 16, 256}
	props := gopter.NewProperties(proptest.Parameters(t, 60))
	props.Property("fold", prop.ForAll(func(si, probes, op, distinct, n int, seed uint64) string {
		slots := slotChoices[si]
		probes = min(probes, slots)
		o := combinerOps[op]
		r := rand.New(rand.NewPCG(seed, 0xc0))
		values := make([]uint32, distinct)
		for i := range values {
			values[i] = r.Uint32()
		}
		values[0] = arrays.EmptyKey
		keys, vals := make([]uint32, n), make([]uint32, n)
		for i := range keys {
			keys[i] = values[min(r.IntN(distinct), r.IntN(distinct))] // the first values hot
			vals[i] = r.Uint32N(1 << 20)
		}
		const cells = 61
		want := make([]uint32, cells)
		for i, k := range keys {
			want[k%cells] = o.apply(want[k%cells], vals[i])
		}
		table, spills, flushed, err := combined(runtime.CPU(), combinerKernel(slots, probes, o.op), keys, vals, cells)
		what := fmt.Sprintf("%s, %d slots, %d probes, %d keys of %d values: ", o.name, slots, probes, n, distinct)
		if err != nil {
			return what + err.Error()
		}
		if !slices.Equal(table, want) {
			return what + fmt.Sprintf("table %v, want %v", table, want)
		}
		blocks := (n + combinerThreads*4 - 1) / (combinerThreads * 4)
		if int(flushed) > blocks*min(slots, distinct) {
			return what + fmt.Sprintf("%d slots flushed by %d blocks", flushed, blocks)
		}
		if distinct == 1 && spills != uint32(n) {
			return what + fmt.Sprintf("%d spills of %d keys, all EmptyKey", spills, n)
		}
		return ""
	}, gen.IntRange(0, len(slotChoices)-1), gen.IntRange(1, 4), gen.IntRange(0, len(combinerOps)-1),
		gen.IntRange(1, 40), gen.IntRange(0, 700), gen.UInt64()))
	props.TestingRun(t)
}

// TestCombinerTakesEveryFreeSlot checks that 6 distinct keys in a table
// of 8 slots whose probes cover it never spill and take 6 slots, and that
// with one slot the keys other than the one that takes it all spill.
func TestCombinerTakesEveryFreeSlot(t *testing.T) {
	keys := []uint32{7, 9, 11, 7, 13, 9, 15, 17}
	vals := slices.Repeat([]uint32{1}, len(keys))
	_, spills, flushed, err := combined(runtime.CPU(), combinerKernel(8, 8, dsl.AtomicAdd), keys, vals, 5)
	if err != nil {
		t.Fatal(err)
	}
	if spills != 0 || flushed != 6 {
		t.Errorf("8 slots, 8 probes: %d spills and %d slots flushed, want 0 and 6", spills, flushed)
	}
	table, spills, flushed, err := combined(runtime.CPU(), combinerKernel(1, 1, dsl.AtomicAdd), keys, vals, 1)
	if err != nil {
		t.Fatal(err)
	}
	// The key in the slot occurs once or twice.
	if flushed != 1 || spills < 6 || spills > 7 || table[0] != 8 {
		t.Errorf("1 slot: %d spills, %d slots flushed, total %d; want 6 or 7, 1 and 8", spills, flushed, table[0])
	}
}

// TestCombinerRejectsBadShapes checks that slots that are not a power of
// two and probes outside 1 to slots fail the kernel's build with a
// message naming the test's line.
func TestCombinerRejectsBadShapes(t *testing.T) {
	for _, c := range []struct{ slots, probes int }{{0, 1}, {3, 1}, {4, 0}, {4, 5}} {
		_, err := combinerKernel(c.slots, c.probes, dsl.AtomicAdd).Build()
		if err == nil || !strings.Contains(err.Error(), "NewCombiner") || !strings.Contains(err.Error(), "combiner_test.go") {
			t.Errorf("%d slots, %d probes: got %v, want an error naming NewCombiner and this file", c.slots, c.probes, err)
		}
	}
}
