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

// TestDiskCacheDetectsCorruption alters and truncates a cached entry: each
// read of a damaged entry is a miss counted as a reject, and writing the
// entry again repairs it.
func TestDiskCacheDetectsCorruption(t *testing.T) {
	dir := t.TempDir()
	key := runtime.KeyOf("src", nil, "sm_90", "13.0")
	other := runtime.KeyOf("other src", nil, "sm_90", "13.0")
	image := bytes.Repeat([]byte("cubin?"), 1000)
	c := runtime.NewDiskCache(dir)
	c.Write(key, image)
	c.Write(other, []byte("another image"))
	entry, err := os.ReadFile(c.Path(key))
	if err != nil {
		t.Fatal(err)
	}
	otherEntry, err := os.ReadFile(c.Path(other))
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(entry)
	flipped[len(flipped)-100] ^= 0x04
	header := bytes.Clone(entry)
	header[len(header)-len(image)-1] ^= 0x80 // the last byte of the checksum
	for _, damage := range []struct {
		name  string
		entry []byte
	}{
		{"one bit of the image flipped", flipped},
		{"one bit of the checksum flipped", header},
		{"truncated by one byte", entry[:len(entry)-1]},
		{"truncated to half", entry[:len(entry)/2]},
		{"truncated inside the header", entry[:10]},
		{"empty", nil},
		{"the bare image of an older cache", image},
		{"another key's entry", otherEntry},
	} {
		if err := os.WriteFile(c.Path(key), damage.entry, 0o644); err != nil {
			t.Fatal(err)
		}
		rejects := c.Stats().DiskRejects
		if got := c.Read(key); got != nil {
			t.Errorf("%s: read %d bytes, want a miss", damage.name, len(got))
		}
		if c.Stats().DiskRejects != rejects+1 {
			t.Errorf("%s: rejects %d, want %d", damage.name, c.Stats().DiskRejects, rejects+1)
		}
		c.Write(key, image)
		if got := c.Read(key); !bytes.Equal(got, image) {
			t.Errorf("%s: after writing again, read %d bytes, want the %d written", damage.name, len(got), len(image))
		}
	}
	if c.Read(other) == nil {
		t.Error("the undamaged entry of another key was rejected")
	}
	if s := c.Stats(); s.DiskRejects != 8 {
		t.Errorf("%+v, want 8 rejects", s)
	}
}
