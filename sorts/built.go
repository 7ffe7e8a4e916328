package sorts

import (
	"sync"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// builtKernels holds every kernel the package has built, by the key that
// tells it apart (a radixKernelKey, or a loadKey), so that a process builds
// each kernel once however many Sorters load it: running a kernel's Go code
// and verifying it takes longer than a GPU's load of it from the runtime's
// compile cache. A built kernel is plain data that loading never modifies
// (codegen.Compile works on a copy), so every device may load it.
var builtKernels sync.Map // key → *builtKernel

// builtKernel is one kernel of builtKernels, built by the first caller.
type builtKernel struct {
	once   sync.Once
	kernel *ir.Kernel
	err    error
}

// loadKey names a kernel of a list that Sorter.load loads: the list's name
// and the kernel's place in it.
type loadKey struct {
	list  string
	index int
}

// built returns the kernel known by key, built by build on first use. key
// must tell apart every kernel that build functions given with it make.
func built(key any, build func() *dsl.Kernel) (*ir.Kernel, error) {
	v, _ := builtKernels.LoadOrStore(key, new(builtKernel))
	b := v.(*builtKernel)
	b.once.Do(func() { b.kernel, b.err = build().Build() })
	return b.kernel, b.err
}
