package networks

import (
	"fmt"
	"math"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// Algorithm is a sorting network of this package.
type Algorithm uint8

// The algorithms.
const (
	// OddEvenTransposition is SortOET: depth n.
	OddEvenTransposition Algorithm = iota + 1
	// OddEvenTranspositionParam is SortOETParam: the batch length is a
	// kernel parameter, so one kernel sorts batches of every length up to
	// its capacity.
	OddEvenTranspositionParam
	// Bubble is BubbleSort: depth 2n-3.
	Bubble
	// Bitonic is BitonicSort: depth log2(n)(log2(n)+1)/2, batches padded to
	// a power of two.
	Bitonic
	// VSort is VSortIt, batches padded to a power of two.
	VSort
	// VSortTables is VSortItTab, its riffle and tau tables held in
	// constant memory as the kernel's constant tables "riffleTable" and
	// "tauTable" (the thesis' executeTab).
	VSortTables
	// VSortParametric is VSortParam, batches padded to a power of two.
	VSortParametric
)

// algorithm is what the package knows of an Algorithm.
type algorithm struct {
	name string
	// pow2: the sorter needs a power of two, to which batches are padded.
	pow2 bool
	// param: the batch length is a kernel parameter.
	param bool
	sort  func(b *dsl.Block, a Pull[uint32]) Pull[uint32]
	// tables, when set, makes the constant tables the kernel holds for a
	// capacity, and sortTab sorts with them.
	tables  func(capacity int) [][]uint32
	sortTab func(b *dsl.Block, tables []Pull[uint32], a Pull[uint32]) Pull[uint32]
}

// tableNames are the names of the kernel's constant tables.
var tableNames = []string{"riffleTable", "tauTable"}

// vsortTables returns VSortItTab's tables for a capacity.
func vsortTables(capacity int) [][]uint32 {
	return [][]uint32{RiffleTable(capacity), TauTable(capacity)}
}

// vsortTab is VSortItTab taking its tables as a list.
func vsortTab(b *dsl.Block, tables []Pull[uint32], a Pull[uint32]) Pull[uint32] {
	return VSortItTab(b, tables[0], tables[1], a)
}

var algorithms = map[Algorithm]algorithm{
	OddEvenTransposition:      {name: "oddEvenTransposition", sort: SortOET[uint32]},
	OddEvenTranspositionParam: {name: "oddEvenTranspositionParam", param: true},
	Bubble:                    {name: "bubble", sort: BubbleSort[uint32]},
	Bitonic:                   {name: "bitonic", pow2: true, sort: BitonicSort[uint32]},
	VSort:                     {name: "vsort", pow2: true, sort: VSortIt[uint32]},
	VSortTables:               {name: "vsortTables", pow2: true, tables: vsortTables, sortTab: vsortTab},
	VSortParametric:           {name: "vsortParam", pow2: true, sort: VSortParam[uint32]},
}

// Algorithms returns every Algorithm, in the order of their values.
func Algorithms() []Algorithm {
	return []Algorithm{OddEvenTransposition, OddEvenTranspositionParam, Bubble, Bitonic, VSort, VSortTables, VSortParametric}
}

// String returns the algorithm's name.
func (a Algorithm) String() string {
	if alg, ok := algorithms[a]; ok {
		return alg.name
	}
	return fmt.Sprintf("Algorithm(%d)", uint8(a))
}

// MaxBatch is the longest batch a kernel sorts: one block holds a batch
// (padded to a power of two for Bitonic) in shared memory, three arrays of
// it at once.
const MaxBatch = 2048

// maxThreads is the most threads a block of these kernels has; a longer
// batch is spread over the threads by the block's ForAll.
const maxThreads = 1024

// capacity returns the number of elements a block of alg holds for batches
// of batch elements: batch, or the power of two at or above it.
func (alg algorithm) capacity(batch uint32) uint32 {
	if !alg.pow2 {
		return batch
	}
	c := uint32(1)
	for c < batch {
		c <<= 1
	}
	return c
}

// Kernel returns the kernel that sorts every batch of batch consecutive
// uint32 keys of its input into its output, one block per batch (the
// thesis' sorters, run on many batches at once, as its Figure 14 does); a
// last batch that is shorter is sorted too. For OddEvenTranspositionParam
// batch is the kernel's capacity, and its parameter "batch" (at most the
// capacity, at least 1) is the batch length of a launch. Batch must be in
// [1, MaxBatch].
func Kernel(alg Algorithm, batch int) (*dsl.Kernel, error) {
	a, ok := algorithms[alg]
	if !ok {
		return nil, fmt.Errorf("networks: unknown algorithm %v", alg)
	}
	if batch < 1 || batch > MaxBatch {
		return nil, fmt.Errorf("networks: batch %d outside [1, %d]", batch, MaxBatch)
	}
	size := uint32(batch)
	cap := a.capacity(size)
	threads := (min(cap, maxThreads) + ir.WarpSize - 1) / ir.WarpSize * ir.WarpSize
	k := dsl.NewKernel(fmt.Sprintf("%s%d", a.name, batch), int(threads))
	in := dsl.Input[uint32](k, "input")
	out := dsl.Output[uint32](k, "output")
	largest := dsl.Lit(uint32(math.MaxUint32))
	if a.param {
		n := dsl.Param[uint32](k, "batch").Max(dsl.N(1)).Min(dsl.N(size))
		k.Body(func(g *dsl.Grid) {
			g.ForAllBlocks(dsl.CeilDiv(in.Len(), n), func(b *dsl.Block, bid dsl.U32) {
				base := bid.Mul(n)
				part := arrays.Take(n.Min(in.Len().Sub(base)), arrays.Drop(base, arrays.FromArray(in)))
				sorted := SortOETParam(b, size, largest, part)
				b.ForAll(sorted.Len(), func(t *dsl.Thread, i dsl.U32) {
					t.If(base.Add(i).Lt(out.Len()), func(t *dsl.Thread) { out.Store(t, base.Add(i), sorted.At(i)) })
				})
			})
		})
		return k, nil
	}
	sort := a.sort
	if a.tables != nil {
		var tables []Pull[uint32]
		for i, values := range a.tables(int(cap)) {
			tables = append(tables, arrays.FromArray(dsl.ConstTable(k, tableNames[i], values)))
		}
		sort = func(b *dsl.Block, x Pull[uint32]) Pull[uint32] { return a.sortTab(b, tables, x) }
	}
	k.Body(func(g *dsl.Grid) {
		batches := arrays.SplitUp(size, largest, arrays.FromArray(in))
		arrays.WriteTo(g, out, arrays.MapBlocks(batches, size, func(b *dsl.Block, _ dsl.U32, part Pull[uint32]) arrays.Push[*dsl.Block, uint32] {
			if cap > size {
				part = arrays.Append(part, arrays.Replicate(dsl.N(cap-size), largest))
			}
			return arrays.ToPush[*dsl.Block](arrays.Take(dsl.N(size), sort(b, part)))
		}))
	})
	return k, nil
}
