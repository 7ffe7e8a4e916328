//go:build unix

package runtime_test

import (
	"bytes"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/runtime"
)

// TestDiskCacheIgnoresNonRegularFiles puts a FIFO, a folder and a link to a
// FIFO where cache entries belong: reading them must not block, must miss
// and count a reject, and writing the entry must replace the FIFO.
func TestDiskCacheIgnoresNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	c := runtime.NewDiskCache(dir)
	fifo := runtime.KeyOf("fifo", nil, "sm_90", "13.0")
	folder := runtime.KeyOf("folder", nil, "sm_90", "13.0")
	link := runtime.KeyOf("link", nil, "sm_90", "13.0")
	if err := syscall.Mkfifo(c.Path(fifo), 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	if err := os.Mkdir(c.Path(folder), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(c.Path(fifo), c.Path(link)); err != nil {
		t.Fatal(err)
	}
	for _, key := range [][32]byte{fifo, folder, link} {
		done := make(chan []byte, 1)
		go func() { done <- c.Read(key) }()
		select {
		case got := <-done:
			if got != nil {
				t.Errorf("read %d bytes from a file that is not a regular file", len(got))
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("reading the cache entry at %s blocks", c.Path(key))
		}
	}
	if s := c.Stats(); s.DiskRejects != 3 {
		t.Errorf("%+v, want 3 rejects", s)
	}
	image := []byte("a compiled kernel")
	c.Write(fifo, image)
	if got := c.Read(fifo); !bytes.Equal(got, image) {
		t.Errorf("after writing over the FIFO, read %q, want %q", got, image)
	}
	if info, err := os.Lstat(c.Path(fifo)); err != nil || !info.Mode().IsRegular() {
		t.Errorf("the entry written over the FIFO: %v, %v", info, err)
	}
}
