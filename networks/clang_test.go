package networks_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/networks"
)

// TestClangCompilesTheNetworks prints every sorter's kernel for a small
// odd batch and for MaxBatch (which must fit a block's shared memory) and
// compiles it with clang in CUDA device mode, with codegen's prelude in
// place of the CUDA headers.
func TestClangCompilesTheNetworks(t *testing.T) {
	clang, err := exec.LookPath("clang-14")
	if err != nil {
		t.Skip("clang-14 is not installed; CI installs it and runs this test")
	}
	dir := t.TempDir()
	prelude := filepath.Join(dir, "prelude.h")
	if err := os.WriteFile(prelude, []byte(codegen.Prelude()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, alg := range networks.Algorithms() {
		for _, batch := range []int{37, networks.MaxBatch} {
			k, err := networks.Kernel(alg, batch)
			if err != nil {
				t.Fatal(err)
			}
			kernel, err := k.Build()
			if err != nil {
				t.Fatal(err)
			}
			src, _, err := codegen.CUDA(kernel)
			if err != nil {
				t.Fatalf("%v, batch %d: %v", alg, batch, err)
			}
			file := filepath.Join(dir, kernel.Name+".cu")
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc",
				"-nocudalib", "-Xclang", "-target-feature", "-Xclang", "+ptx70", "-include", prelude,
				"-S", "-o", os.DevNull, file)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("clang rejects kernel %s: %v\n%s", kernel.Name, err, out)
			}
		}
	}
}
