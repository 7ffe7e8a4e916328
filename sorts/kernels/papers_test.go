package kernels_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// papersKernels are the kernels of the papers' sorts.
func papersKernels() []*dsl.Kernel {
	return []*dsl.Kernel{kernels.HPSumsHistogramKernel(), kernels.HPDistinctKernel(), kernels.HPBinarizeKernel(),
		kernels.HPCompressKernel(), kernels.HPExpandKernel(), kernels.CountPairsScatterKernel(),
		kernels.NotesRadixLocalKernel(), kernels.NotesRadixScatterKernel()}
}

// TestPapersKernelsBuild builds the papers' sorts' kernels, prints them as
// CUDA and compiles that with clang-14 in CUDA device mode (with codegen's
// prelude in place of the CUDA headers) where it is installed, and checks
// that the notes' radix sort's local sort pads its shared memory as the
// notes do (a slot every 32 elements).
func TestPapersKernelsBuild(t *testing.T) {
	clang, clangErr := exec.LookPath("clang-14")
	dir := t.TempDir()
	prelude := filepath.Join(dir, "prelude.h")
	if err := os.WriteFile(prelude, []byte(codegen.Prelude()), 0o644); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, k := range papersKernels() {
		built, err := k.Build()
		if err != nil {
			t.Errorf("%s: %v", k.Name(), err)
			continue
		}
		if names[built.Name] {
			t.Errorf("two kernels are named %s", built.Name)
		}
		names[built.Name] = true
		cu, _, err := codegen.CUDA(built)
		if err != nil {
			t.Errorf("%s: %v", built.Name, err)
			continue
		}
		if built.Name == "notesRadixLocal" && !strings.Contains(cu, ">> 5u") {
			t.Errorf("%s: no bank-conflict padding (i + (i >> 5)) in its CUDA text:\n%s", built.Name, cu)
		}
		if clangErr != nil {
			continue
		}
		file := filepath.Join(dir, built.Name+".cu")
		if err := os.WriteFile(file, []byte(cu), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc",
			"-nocudalib", "-Xclang", "-target-feature", "-Xclang", "+ptx70", "-include", prelude,
			"-S", "-o", os.DevNull, file)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("clang rejects kernel %s: %v\n%s\n%s", built.Name, err, out, cu)
		}
	}
	if clangErr != nil {
		t.Logf("clang-14 is not installed: the CUDA text was not compiled (CI installs it)")
	}
}
