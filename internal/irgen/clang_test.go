package irgen_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/internal/irgen"
)

// TestClangCompilesGeneratedKernels compiles the printed CUDA of a sample of
// generated kernels with clang in CUDA device mode, with codegen's prelude
// in place of the CUDA headers, as codegen's own clang test does.
func TestClangCompilesGeneratedKernels(t *testing.T) {
	clang, err := exec.LookPath("clang-14")
	if err != nil {
		t.Skip("clang-14 is not installed; CI installs it and runs this test")
	}
	dir := t.TempDir()
	prelude := filepath.Join(dir, "prelude.h")
	if err := os.WriteFile(prelude, []byte(codegen.Prelude()), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "kernel.cu")
	props := properties(t, 20)
	props.Property("clang compiles the printed CUDA", prop.ForAll(func(p *irgen.Program) string {
		src, _, err := codegen.CUDA(p.Kernel)
		if err != nil {
			return fmt.Sprintf("codegen.CUDA: %v\n%v", err, p)
		}
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			return err.Error()
		}
		cmd := exec.Command(clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc",
			"-nocudalib", "-Xclang", "-target-feature", "-Xclang", "+ptx70", "-include", prelude,
			"-S", "-o", os.DevNull, file)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Sprintf("clang rejects the kernel: %v\n%s\n%s\n%v", err, out, src, p)
		}
		return ""
	}, irgen.Kernel(3)))
	props.TestingRun(t)
}
