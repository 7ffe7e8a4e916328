package runtime

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
)

// CacheStats counts how a GPU's kernel loads were served.
type CacheStats struct {
	Compiles   int64 // compiled with NVRTC
	MemoryHits int64 // already loaded in this process
	DiskHits   int64 // read from the disk cache
}

// kernelCache holds a GPU's loaded modules by key and finds compiled images
// on disk.
type kernelCache struct {
	mu      sync.Mutex // held while a module is found, compiled or loaded
	dir     string     // "" when the disk cache is off
	modules map[cacheKey]uintptr

	compiles, memoryHits, diskHits atomic.Int64
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
	return &kernelCache{dir: DefaultCacheDir(), modules: map[cacheKey]uintptr{}}
}

// SetCacheDir sets the folder of the GPU's disk cache of compiled kernels;
// "" turns the disk cache off. Kernels already loaded stay loaded.
func (g *GPU) SetCacheDir(dir string) {
	g.cache.mu.Lock()
	defer g.cache.mu.Unlock()
	g.cache.dir = dir
}

// CacheDir returns the folder of the GPU's disk cache, "" when it is off.
func (g *GPU) CacheDir() string {
	g.cache.mu.Lock()
	defer g.cache.mu.Unlock()
	return g.cache.dir
}

// CacheStats returns how the GPU's kernel loads have been served so far.
func (g *GPU) CacheStats() CacheStats {
	return g.cache.stats()
}

func (c *kernelCache) stats() CacheStats {
	return CacheStats{Compiles: c.compiles.Load(), MemoryHits: c.memoryHits.Load(), DiskHits: c.diskHits.Load()}
}

// path returns where the image of key lives on disk; c.mu is held.
func (c *kernelCache) path(key cacheKey, ext string) string {
	return filepath.Join(c.dir, hex.EncodeToString(key[:])+ext)
}

// readDisk returns the cached image of key, or nil; c.mu is held.
func (c *kernelCache) readDisk(key cacheKey, ext string) []byte {
	if c.dir == "" {
		return nil
	}
	image, err := os.ReadFile(c.path(key, ext))
	if err != nil || len(image) == 0 {
		return nil
	}
	return image
}

// writeDisk stores image under key. The file appears whole or not at all
// (a temporary file renamed into place), so processes can share the folder.
// The cache is an optimisation: a failure to write it is not reported.
// c.mu is held.
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
	_, werr := tmp.Write(image)
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
