package runtime_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/obsidian-go/obsidian/runtime"
)

func TestCacheKeyCoversEveryInput(t *testing.T) {
	base := runtime.KeyOf("src", []string{"--std=c++17"}, "sm_90", "13.0")
	if again := runtime.KeyOf("src", []string{"--std=c++17"}, "sm_90", "13.0"); again != base {
		t.Fatal("the same inputs give different keys")
	}
	for name, k := range map[string][32]byte{
		"source":  runtime.KeyOf("src ", []string{"--std=c++17"}, "sm_90", "13.0"),
		"options": runtime.KeyOf("src", []string{"--std=c++14"}, "sm_90", "13.0"),
		"arch":    runtime.KeyOf("src", []string{"--std=c++17"}, "sm_80", "13.0"),
		"version": runtime.KeyOf("src", []string{"--std=c++17"}, "sm_90", "12.9"),
		"split":   runtime.KeyOf("src--std=c++17", nil, "sm_90", "13.0"),
	} {
		if k == base {
			t.Errorf("changing the %s leaves the key unchanged", name)
		}
	}
}

func TestDiskCacheWritesWholeFilesConcurrently(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kernels")
	key := runtime.KeyOf("src", nil, "sm_90", "13.0")
	if got := runtime.NewDiskCache(dir).Read(key); got != nil {
		t.Fatalf("empty cache returned %d bytes", len(got))
	}
	image := bytes.Repeat([]byte("cubin!"), 100000)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { runtime.NewDiskCache(dir).Write(key, image) })
	}
	wg.Wait()
	if got := runtime.NewDiskCache(dir).Read(key); !bytes.Equal(got, image) {
		t.Fatalf("read back %d bytes, want the %d written", len(got), len(image))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left in the cache", e.Name())
		}
	}
	if len(entries) != 1 {
		t.Errorf("%d files in the cache, want 1", len(entries))
	}
	if runtime.NewDiskCache("").Read(key) != nil {
		t.Error("a disabled cache returned an image")
	}
}

func TestDefaultCacheDirHonoursOff(t *testing.T) {
	t.Setenv("OBSIDIAN_CACHE", "off")
	if dir := runtime.DefaultCacheDir(); dir != "" {
		t.Errorf("OBSIDIAN_CACHE=off: cache dir %q, want none", dir)
	}
	t.Setenv("OBSIDIAN_CACHE", "")
	t.Setenv("XDG_CACHE_HOME", "/somewhere")
	if dir := runtime.DefaultCacheDir(); dir != filepath.Join("/somewhere", "obsidian-go", "kernels") {
		t.Errorf("cache dir %q, want it under XDG_CACHE_HOME", dir)
	}
}
