package catalog

import (
	"fmt"
	"sort"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/examples/thesis"
	"github.com/obsidian-go/obsidian/gen"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// Entry is a kernel of the catalogue.
type Entry struct {
	Name  string             // the kernel's name, as printed
	Doc   string             // one line saying what it does
	Build func() *dsl.Kernel // a fresh builder of the kernel
	// WithThreads, when not nil, builds the kernel for another block size
	// (its name then says the size, as Build's does).
	WithThreads func(threads int) *dsl.Kernel
}

// Entries returns the catalogue, sorted by name.
func Entries() []Entry {
	es := []Entry{
		{"sklansky32", "inclusive scan of 32-element chunks, one block each (paper: sklansky)", func() *dsl.Kernel { return kernels.SklanskyKernel(5) }, nil},
		{"sklansky1024", "inclusive scan of 1024-element chunks, one block each", func() *dsl.Kernel { return kernels.SklanskyKernel(10) }, nil},
		{"sklanskyMax32", "inclusive scan of 32-element chunks with chunk totals (paper: sklanskyMax, figure 8)", func() *dsl.Kernel { return kernels.ScanKernel(5) }, nil},
		{"sklanskyMax1024", "inclusive scan of 1024-element chunks with chunk totals", func() *dsl.Kernel { return kernels.ScanKernel(10) }, nil},
		{"distribute", "adds the scanned chunk totals to the chunks of 1024 elements (paper, figure 9)", func() *dsl.Kernel { return kernels.DistributeKernel(10) }, nil},
		{"histogram", "counts keys in bins with atomicInc, flagging keys out of range", kernels.HistogramKernel, nil},
		{"occurs", "marks the bins that keys fall in with plain writes of 1, flagging keys out of range", kernels.OccursKernel, nil},
		{"reconstruct", "writes each value as often as the positions say, a loop per value", kernels.ReconstructKernel, nil},
		{"reconstructOnce", "writes each value that occurs, a conditional per value (occurrence sort)", kernels.ReconstructOnceKernel, nil},
		{"rev256", "reverses 256-element chunks through shared memory (thesis: rev ->- sync)", func() *dsl.Kernel { return thesis.Rev(256) }, chunked(thesis.Rev)},
		{"tworev256", "reverses each half of 256-element chunks (thesis: two rev ->- sync)", func() *dsl.Kernel { return thesis.TwoRev(256) }, chunked(thesis.TwoRev)},
		{"riffleTab256", "riffles 256-element chunks through a table in constant memory (thesis: tblLook rifftab ->- sync)", func() *dsl.Kernel { return thesis.RiffleTab(256) }, chunked(thesis.RiffleTab)},
		{"oddEvenSort64", "sorts 64-element chunks by odd-even transposition in one block (thesis)", func() *dsl.Kernel { return thesis.OddEvenSort(64) }, chunked(thesis.OddEvenSort)},
	}
	sort.Slice(es, func(i, j int) bool { return es[i].Name < es[j].Name })
	return es
}

// chunked adapts a kernel of one block per chunk, whose chunk size is its
// block size, to Entry.WithThreads.
func chunked(build func(n uint32) *dsl.Kernel) func(threads int) *dsl.Kernel {
	return func(threads int) *dsl.Kernel { return build(uint32(threads)) }
}

// Header is the first line of every generated file.
const Header = gen.Header

// Kernel builds the entry's kernel and checks that it has the entry's name.
func (e Entry) Kernel() (*ir.Kernel, error) {
	k, err := e.Build().Build()
	if err != nil {
		return nil, err
	}
	if k.Name != e.Name {
		return nil, fmt.Errorf("catalogue entry %s builds kernel %s", e.Name, k.Name)
	}
	return k, nil
}

// KernelWithThreads builds the entry's kernel for threads threads per
// block (its name then says the size); ok is false for an entry whose block
// size is fixed.
func (e Entry) KernelWithThreads(threads int) (k *ir.Kernel, ok bool, err error) {
	if e.WithThreads == nil {
		return nil, false, nil
	}
	if threads < 1 {
		return nil, true, fmt.Errorf("%s: %d threads per block", e.Name, threads)
	}
	k, err = e.WithThreads(threads).Build()
	return k, true, err
}

// CUDAFile returns the text of the .cu file that obsgen emit writes for k:
// the generated-code header, the command that made it, then the printed
// kernel.
func CUDAFile(k *ir.Kernel) (string, error) {
	p, err := gen.Print(k)
	if err != nil {
		return "", err
	}
	return p.CUDAFile("obsgen emit " + k.Name), nil
}
