package sorts_test

import (
	"testing"

	"github.com/obsidian-go/obsidian/internal/gputest"
)

// TestGPUScan checks the fast scan on the GPU at lengths the CPU tests do
// not reach: past 4096 tiles (2^24 elements), where the tiles' totals are
// themselves scanned in several tiles.
func TestGPUScan(t *testing.T) {
	checkScans(t, gputest.Open(t), []int{0, 1, scanTile - 1, scanTile + 1, 1 << 24, 1<<24 + 1, 1<<25 + 3})
}
