package extest

import (
	"math/rand"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	_ "github.com/obsidian-go/obsidian/internal/golden" // accept -update like every test binary
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
)

var gpu = sync.OnceValues(func() (*runtime.GPU, error) { return runtime.Open(0) })

// OnDevices runs test as the subtest "CPU" on a new CPU device and as the
// subtest "GPU" on GPU 0, which it skips with runtime.Open's error where
// there is no GPU.
func OnDevices(t *testing.T, test func(t *testing.T, dev runtime.Device)) {
	t.Run("CPU", func(t *testing.T) { test(t, runtime.CPU()) })
	t.Run("GPU", func(t *testing.T) {
		g, err := gpu()
		if err != nil {
			t.Skip(err)
		}
		test(t, g)
	})
}

// Rand returns a random source seeded from $OBSIDIAN_SEED or the clock,
// logging the seed so that a failure can be replayed.
func Rand(t testing.TB) *rand.Rand {
	t.Helper()
	seed := time.Now().UnixNano()
	if s := os.Getenv(proptest.SeedVar); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q is not an integer", proptest.SeedVar, s)
		}
		seed = v
	}
	t.Logf("seed %d (replay with %s=%d)", seed, proptest.SeedVar, seed)
	return rand.New(rand.NewSource(seed))
}

// Upload returns a buffer of dev holding s, failing the test at once if it
// cannot.
func Upload[T runtime.Scalar](t testing.TB, dev runtime.Device, s []T) *runtime.Buffer[T] {
	t.Helper()
	b, err := runtime.FromSlice(dev, s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Alloc returns a zeroed buffer of n elements on dev, failing the test at
// once if it cannot.
func Alloc[T runtime.Scalar](t testing.TB, dev runtime.Device, n int) *runtime.Buffer[T] {
	t.Helper()
	var zero T
	b, err := runtime.Alloc[T](dev, n)
	if err == nil {
		err = b.Fill(zero)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Download returns the contents of b, failing the test at once if it
// cannot.
func Download[T runtime.Scalar](t testing.TB, b *runtime.Buffer[T]) []T {
	t.Helper()
	s, err := b.ToSlice()
	if err != nil {
		t.Fatal(err)
	}
	return s
}
