package gen

import (
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
)

// TestConstTableIsNoParameter checks the files of a kernel with a
// constant table: the .cu file defines the table, and the launcher takes
// only the kernel's parameters, sizing the launch from the table's length
// (a constant).
func TestConstTableIsNoParameter(t *testing.T) {
	k := dsl.NewKernel("lookup", 64)
	tab := dsl.ConstTable(k, "tab", []int32{-3, 1, 4, 1, 5})
	in, out := dsl.Input[uint32](k, "in"), dsl.Output[int32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(tab.Len(), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, tab.At(in.At(i).Rem(tab.Len()))) })
	})
	built, err := Build([]*dsl.Kernel{k})
	if err != nil {
		t.Fatal(err)
	}
	files, err := PackageFiles(Scope{Name: "p"}, "a test", built)
	if err != nil {
		t.Fatal(err)
	}
	if cu := string(files["lookup.cu"]); !strings.Contains(cu, "__constant__ int tab[5] = {-3, 1, 4, 1, 5};\n") {
		t.Errorf("lookup.cu does not define the table:\n%s", cu)
	}
	src := string(files["p_launch.go"])
	if !strings.Contains(src, "func Lookup(dev runtime.Device, cfg runtime.LaunchConfig, in *runtime.Buffer[uint32], out *runtime.Buffer[int32]) error") ||
		strings.Contains(src, `Name: "tab"`) {
		t.Errorf("the launcher takes the table, or not the parameters:\n%s", src)
	}
}
