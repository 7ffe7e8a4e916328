package gen_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/gen"
)

// saxpyKernel returns a kernel computing y = a*x + y.
func saxpyKernel() *dsl.Kernel {
	k := dsl.NewKernel("saxpy", 256)
	a := dsl.Param[float32](k, "a")
	x, y := dsl.Input[float32](k, "x"), dsl.InOut[float32](k, "y")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(y.Len(), func(t *dsl.Thread, i dsl.U32) {
			y.Store(t, i, a.Mul(x.At(i)).Add(y.At(i)))
		})
	})
	return k
}

// The files obsgen run writes for a package of kernels (here package
// blas, whose Kernels returns saxpyKernel()): a .cu file per kernel and a
// Go file with a typed launcher per kernel.
func Example() {
	kernels, err := gen.Build([]*dsl.Kernel{saxpyKernel()}) // every mistake at its Go line
	if err != nil {
		fmt.Println(err)
		return
	}
	// The scope is what the package's own files declare, read with
	// gen.ReadScope: launcher names must not clash with it.
	files, err := gen.PackageFiles(gen.Scope{Name: "blas"}, "an example", kernels)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		fmt.Println(name)
	}
	for line := range strings.Lines(string(files["blas_launch.go"])) {
		if strings.HasPrefix(line, "func ") {
			fmt.Print(line)
		}
	}
	// Output:
	// blas_launch.go
	// saxpy.cu
	// func Saxpy(dev runtime.Device, cfg runtime.LaunchConfig, a float32, x *runtime.Buffer[float32], y *runtime.Buffer[float32]) error {
}
