package gen

import (
	"errors"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

func TestNames(t *testing.T) {
	for in, want := range map[string]string{"histogram": "Histogram", "shift_by": "ShiftBy", "rev256": "Rev256", "_x": "X", "9": "K9"} {
		if got := exportedName(in); got != want {
			t.Errorf("exportedName(%q) = %q, want %q", in, got, want)
		}
	}
	got := paramNames([]string{"keys", "type", "len", "dev", "cfg", "lenArg", "obsgenX", "runtime"}, setOf("dev cfg runtime"))
	want := []string{"keys", "pType", "lenArg", "devArg", "cfgArg", "lenArgArg", "pObsgenX", "runtimeArg"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("paramNames = %v, want %v", got, want)
	}
}

// copyKernel returns a kernel that copies in to out, called name.
func copyKernel(name string) *dsl.Kernel {
	k := dsl.NewKernel(name, 64)
	in, out := dsl.Input[uint32](k, "in"), dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAll(out.Len(), func(t *dsl.Thread, i dsl.U32) { out.Store(t, i, in.At(i)) })
	})
	return k
}

func TestBuildReportsEveryMistake(t *testing.T) {
	_, err := Build([]*dsl.Kernel{copyKernel("a"), nil, copyKernel("a"), dsl.NewKernel("empty", 32)})
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"kernel 1 of the list is nil", "a second kernel called a", "gen_test.go:", "kernel empty has no Body"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if _, err := Build(nil); err == nil {
		t.Error("no error for no kernels")
	}
}

func TestLauncherFile(t *testing.T) {
	built, err := Build([]*dsl.Kernel{copyKernel("copy_all"), copyKernel("copyAll")})
	if err != nil {
		t.Fatal(err)
	}
	files, err := PackageFiles(Scope{Name: "p"}, "a test", built[:1])
	if err != nil {
		t.Fatal(err)
	}
	src := string(files["p_launch.go"])
	for _, want := range []string{
		Header + "\n// Made by a test.\n",
		"// Made by a test.\n\npackage p\n",
		"func CopyAll(dev runtime.Device, cfg runtime.LaunchConfig, in *runtime.Buffer[uint32], out *runtime.Buffer[uint32]) error",
		"Kernels:     Kernels,",
		"launch.Blocks(",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("launcher file lacks %q:\n%s", want, src)
		}
	}
	if !strings.HasPrefix(string(files["copy_all.cu"]), Header+"\n// Made by a test.\n\n") {
		t.Errorf("copy_all.cu begins %.100q", files["copy_all.cu"])
	}
	_, err = PackageFiles(Scope{Name: "p"}, "a test", built)
	var clash *NameClashError
	if !errors.As(err, &clash) || clash.Name != "CopyAll" || !strings.Contains(err.Error(), "the launcher of kernel copyAll") ||
		!strings.Contains(err.Error(), "the launcher of kernel copy_all") {
		t.Errorf("two kernels for one launcher name: %v", err)
	}
}

// TestBlocksNotFromParameters checks a kernel whose number of blocks reads
// an array gets a launcher that asks for cfg.Blocks.
func TestBlocksNotFromParameters(t *testing.T) {
	built, err := Build([]*dsl.Kernel{copyKernel("c")})
	if err != nil {
		t.Fatal(err)
	}
	k := built[0]
	k.Blocks = &ir.Load{Array: k.Params[0].Array, Index: &ir.Const{Value: ir.UintValue(ir.Uint32, 0)}}
	src, err := LauncherFile(Scope{Name: "p"}, "a test", []Printed{{Kernel: k, CUDA: "text"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "cfg.Blocks must be set") || !strings.Contains(string(src), "Launch(dev, cfg, nil, in, out)") {
		t.Errorf("launcher does not ask for cfg.Blocks:\n%s", src)
	}
}

// TestLauncherKeepsAlignment checks that the signature a launcher embeds
// carries a parameter's declared alignment, so that its launches check it
// as launches of the IR kernel do.
func TestLauncherKeepsAlignment(t *testing.T) {
	built, err := Build([]*dsl.Kernel{copyKernel("c")})
	if err != nil {
		t.Fatal(err)
	}
	k := built[0]
	k.Params[0].Array.Align = 16
	src, err := LauncherFile(Scope{Name: "p"}, "a test", []Printed{{Kernel: k, CUDA: "text"}})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(src), "Align:"); n != 1 || !strings.Contains(string(src), "Align: 16") {
		t.Errorf("launcher file has %d alignments, want the input's 16:\n%s", n, src)
	}
}
