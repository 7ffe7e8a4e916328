package runtime_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/runtime"
)

func TestNVRTCCandidatesOrder(t *testing.T) {
	files := map[string][]string{
		"/usr/local/cuda*/lib64":                   {"/usr/local/cuda/lib64", "/usr/local/cuda-12.9/lib64", "/usr/local/cuda-13.0/lib64", "/usr/local/cuda-12.10/lib64"},
		"/usr/local/cuda-13.0/lib64/libnvrtc.so*":  {"/usr/local/cuda-13.0/lib64/libnvrtc.so", "/usr/local/cuda-13.0/lib64/libnvrtc.so.13.0.48", "/usr/local/cuda-13.0/lib64/libnvrtc.so.13"},
		"/usr/local/cuda-12.9/lib64/libnvrtc.so*":  {"/usr/local/cuda-12.9/lib64/libnvrtc.so.12"},
		"/usr/local/cuda-12.10/lib64/libnvrtc.so*": {"/usr/local/cuda-12.10/lib64/libnvrtc.so.12"},
		"/opt/cuda/lib64/libnvrtc.so*":             {"/opt/cuda/lib64/libnvrtc.so.12"},
	}
	glob := func(pattern string) ([]string, error) { return files[pattern], nil }
	getenv := func(name string) string {
		if name == "CUDA_HOME" {
			return "/opt/cuda"
		}
		return ""
	}
	got := runtime.NVRTCCandidates(getenv, glob)
	want := []string{
		"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2",
		"/opt/cuda/lib64/libnvrtc.so.12",
		"/usr/local/cuda-13.0/lib64/libnvrtc.so.13.0.48", "/usr/local/cuda-13.0/lib64/libnvrtc.so.13", "/usr/local/cuda-13.0/lib64/libnvrtc.so",
		"/usr/local/cuda-12.10/lib64/libnvrtc.so.12",
		"/usr/local/cuda-12.9/lib64/libnvrtc.so.12",
	}
	if !slices.Equal(got, want) {
		t.Errorf("candidates:\n got %q\nwant %q", got, want)
	}
}

func TestCompareVersions(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"cuda-12.9", "cuda-12.10", -1},
		{"cuda-13.0", "cuda-12.10", 1},
		{"libnvrtc.so.13", "libnvrtc.so.13.0.48", -1},
		{"cuda-12.4", "cuda-12.4", 0},
		{"cuda", "cuda-11.8", -1},
	} {
		got := runtime.CompareVersions(c.a, c.b)
		if (got < 0) != (c.want < 0) || (got > 0) != (c.want > 0) {
			t.Errorf("compareVersions(%q, %q) = %d, want sign %d", c.a, c.b, got, c.want)
		}
	}
}

func TestTargetFor(t *testing.T) {
	supported := []int{75, 80, 86, 89, 90, 100, 120}
	for _, c := range []struct {
		sm    int
		arch  string
		cubin bool
	}{
		{90, "sm_90", true},
		{87, "compute_86", false},   // no sm_87 in the list: PTX the driver can JIT
		{130, "compute_120", false}, // a GPU newer than NVRTC
	} {
		arch, cubin, err := runtime.TargetFor(c.sm, supported)
		if err != nil || arch != c.arch || cubin != c.cubin {
			t.Errorf("targetFor(%d) = %s, %v, %v; want %s, %v", c.sm, arch, cubin, err, c.arch, c.cubin)
		}
	}
	if _, _, err := runtime.TargetFor(61, supported); err == nil || !strings.Contains(err.Error(), "6.1") {
		t.Errorf("targetFor(61) on a list starting at 75: err = %v, want one naming compute capability 6.1", err)
	}
}

func TestOpenWithoutDriverSaysWhatWasTried(t *testing.T) {
	g, err := runtime.Open(0)
	if err == nil {
		t.Cleanup(func() { _ = g.Close() })
		t.Skip("a GPU is present: nothing to check about missing drivers")
	}
	if msg := err.Error(); !strings.Contains(msg, "libcuda.so.1") && !strings.Contains(msg, "CUDA_ERROR") {
		t.Errorf("Open error %q names neither the libraries tried nor a CUDA error", msg)
	}
	if _, err := runtime.Open(-1); err == nil {
		t.Error("Open(-1) succeeded")
	}
}

func TestNVRTCCandidatesUseRealGlob(t *testing.T) {
	dir := t.TempDir()
	got := runtime.NVRTCCandidates(func(string) string { return dir }, filepath.Glob)
	if len(got) < 4 || got[0] != "libnvrtc.so" {
		t.Errorf("candidates with an empty CUDA_HOME: %q", got)
	}
}
