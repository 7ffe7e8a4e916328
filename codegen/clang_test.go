package codegen

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestClangCompilesEveryConstruct compiles the printed CUDA of kernels that
// use every construct with clang in CUDA device mode, with the prelude in
// place of the CUDA headers.
func TestClangCompilesEveryConstruct(t *testing.T) {
	clang, err := exec.LookPath("clang-14")
	if err != nil {
		t.Skip("clang-14 is not installed; CI installs it and runs this test")
	}
	dir := t.TempDir()
	prelude := filepath.Join(dir, "prelude.h")
	if err := os.WriteFile(prelude, []byte(Prelude()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, k := range constructKernels() {
		src, _ := mustCUDA(t, k)
		file := filepath.Join(dir, k.Name+".cu")
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc",
			"-nocudalib", "-Xclang", "-target-feature", "-Xclang", "+ptx70", "-include", prelude,
			"-S", "-o", os.DevNull, file)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("clang rejects kernel %s: %v\n%s\n%s", k.Name, err, out, src)
		}
	}
}
