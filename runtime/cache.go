package runtime

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// CacheStats counts how a GPU's kernel loads were served.
type CacheStats struct {
	Compiles   int64 // compiled with NVRTC
	MemoryHits int64 // already loaded in this process
	DiskHits   int64 // read from the disk cache
	// DiskRejects counts disk cache entries found but not used: not a
	// regular file, too large, truncated or altered (their checksum does
	// not match). Each is compiled again and its entry replaced.
	DiskRejects int64
}

// kernelCache holds a GPU's loaded modules by key and finds compiled images
// on disk.
type kernelCache struct {
	mu        sync.Mutex // held while a module is found or loaded, not while it compiles
	dir       string     // "" when the disk cache is off
	modules   map[cacheKey]uintptr
	compiling map[cacheKey]*compilation

	compiles, memoryHits, diskHits, diskRejects atomic.Int64
}

// compilation is a compile under way: done closes when it ends, err then
// says why it failed (nil when its module was loaded).
type compilation struct {
	done chan struct{}
	err  error
}

// cacheKey identifies a compiled image: the SHA-256 of everything that
// determines it.
type cacheKey [sha256.Size]byte

// keyOf returns the key of src compiled with options for arch by NVRTC
// version nvrtcVersion.
func keyOf(src string, options []string, arch, nvrtcVersion string) cacheKey {
	h := sha256.New()
	for _, part := range []string{"obsidian-go kernel v1", src, strings.Join(options, "\x00"), arch, nvrtcVersion} {
		h.Write([]byte(part))
		h.Write([]byte{0xff})
	}
	var k cacheKey
	h.Sum(k[:0])
	return k
}

// DefaultCacheDir returns the disk cache folder a GPU starts with:
// os.UserCacheDir()/obsidian-go/kernels, or "" (no disk cache) when the
// environment variable OBSIDIAN_CACHE is "off" or there is no user cache
// folder.
func DefaultCacheDir() string {
	if os.Getenv("OBSIDIAN_CACHE") == "off" {
		return ""
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "obsidian-go", "kernels")
}

func newKernelCache() *kernelCache {
	return &kernelCache{dir: DefaultCacheDir(), modules: map[cacheKey]uintptr{}, compiling: map[cacheKey]*compilation{}}
}

// SetCacheDir sets the folder of the GPU's disk cache of compiled kernels;
// "" turns the disk cache off. Kernels already loaded stay loaded.
func (g *GPU) SetCacheDir(dir string) {
	if g.opened() != nil {
		return
	}
	g.cache.mu.Lock()
	defer g.cache.mu.Unlock()
	g.cache.dir = dir
}

// CacheDir returns the folder of the GPU's disk cache, "" when it is off.
func (g *GPU) CacheDir() string {
	if g.opened() != nil {
		return ""
	}
	g.cache.mu.Lock()
	defer g.cache.mu.Unlock()
	return g.cache.dir
}

// CacheStats returns how the GPU's kernel loads have been served so far.
func (g *GPU) CacheStats() CacheStats {
	if g.opened() != nil {
		return CacheStats{}
	}
	return g.cache.stats()
}

func (c *kernelCache) stats() CacheStats {
	return CacheStats{Compiles: c.compiles.Load(), MemoryHits: c.memoryHits.Load(), DiskHits: c.diskHits.Load(),
		DiskRejects: c.diskRejects.Load()}
}

// path returns where the image of key lives on disk; c.mu is held.
func (c *kernelCache) path(key cacheKey, ext string) string {
	return filepath.Join(c.dir, hex.EncodeToString(key[:])+ext)
}

// A disk cache entry is cacheMagic, then the SHA-256 of the key and the
// image, then the image. The checksum catches a truncated or altered file,
// and one copied under another key's name.
const cacheMagic = "obsidian-go kernel cache v2\n"

// maxCacheEntry bounds the size of a disk cache entry read: compiled
// kernels are far smaller.
const maxCacheEntry = 256 << 20

// entrySum returns the checksum of image stored under key.
func entrySum(key cacheKey, image []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write(key[:])
	h.Write(image)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// encodeEntry returns the disk cache entry of image under key.
func encodeEntry(key cacheKey, image []byte) []byte {
	sum := entrySum(key, image)
	return append(append([]byte(cacheMagic), sum[:]...), image...)
}

// decodeEntry returns the image of an entry read under key, or an error
// saying what is wrong with it.
func decodeEntry(key cacheKey, entry []byte) ([]byte, error) {
	rest, ok := bytes.CutPrefix(entry, []byte(cacheMagic))
	switch {
	case !ok:
		return nil, errors.New("not a kernel cache entry of this version")
	case len(rest) <= sha256.Size:
		return nil, fmt.Errorf("truncated: %d bytes", len(entry))
	}
	image := rest[sha256.Size:]
	if sum := entrySum(key, image); !bytes.Equal(sum[:], rest[:sha256.Size]) {
		return nil, errors.New("checksum mismatch: truncated or altered")
	}
	return image, nil
}

// readEntry reads the file at path, without blocking: a FIFO, a device or
// anything else that is not a regular file is an error, never opened for
// reading in a way that could wait for a writer.
func readEntry(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !info.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file (%v)", path, info.Mode().Type())
	case info.Size() > maxCacheEntry:
		return nil, fmt.Errorf("%s has %d bytes, more than a cache entry may", path, info.Size())
	}
	return io.ReadAll(io.LimitReader(f, maxCacheEntry))
}

// readDisk returns the cached image of key, or nil. An entry that is
// there but unusable counts as a reject; c.mu is held.
func (c *kernelCache) readDisk(key cacheKey, ext string) []byte {
	if c.dir == "" {
		return nil
	}
	entry, err := readEntry(c.path(key, ext))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var image []byte
	if err == nil {
		image, err = decodeEntry(key, entry)
	}
	if err != nil {
		c.diskRejects.Add(1)
		return nil
	}
	return image
}

// writeDisk stores image under key, replacing whatever is at its path
// (but a folder). The file appears whole or not at all (a temporary file
// renamed into place), so processes can share the folder. The cache is an
// optimisation: a failure to write it is not reported. c.mu is held.
func (c *kernelCache) writeDisk(key cacheKey, ext string, image []byte) {
	if c.dir == "" {
		return
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(c.dir, hex.EncodeToString(key[:8])+".tmp*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(encodeEntry(key, image))
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), c.path(key, ext)) != nil {
		_ = os.Remove(tmp.Name())
	}
}

// unload unloads every module; the GPU's context is current.
func (c *kernelCache) unload(drv *driverAPI) []error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for key, m := range c.modules {
		errs = append(errs, drv.moduleUnload.call(m).err("unloading a kernel module"))
		delete(c.modules, key)
	}
	return errs
}
