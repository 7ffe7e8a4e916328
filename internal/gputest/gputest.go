package gputest

import (
	"testing"

	"github.com/obsidian-go/obsidian/runtime"
)

// Open returns GPU 0, closed when the test ends, or skips the test with
// the reason there is none.
func Open(t testing.TB) *runtime.GPU {
	t.Helper()
	g, err := runtime.Open(0)
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}
