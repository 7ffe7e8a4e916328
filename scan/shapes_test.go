package scan_test

import (
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/scan"
)

// TestShapeByLength checks the shapes New's scans take by input length:
// every one valid, with tiles by block index, larger tiles from 2^24
// elements on, and the state a Scan of New asks for that of the shape of
// the length.
func TestShapeByLength(t *testing.T) {
	s, err := scan.New(runtime.CPU(), dsl.U32.Add, 0, scan.Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, n := range []uint32{0, 1, 1<<24 - 1, 1 << 24, 1<<25 + 7, scan.MaxLen} {
		shape := arrays.DeviceScanShapeFor(n)
		if err := shape.Check(); err != nil || !shape.TilesByBlock || shape.Vector {
			t.Errorf("length %d: shape %v (%v), want a valid shape with tiles by block and no vector rows", n, shape, err)
		}
		words, err := s.StateLen(int(n))
		if err != nil || uint64(words) != shape.StateLen(n) {
			t.Errorf("length %d: StateLen %d, %v; want %d, the shape's", n, words, err, shape.StateLen(n))
		}
		pkgWords, err := scan.StateLen(int(n))
		if err != nil || pkgWords != words {
			t.Errorf("length %d: scan.StateLen %d, %v; want %d", n, pkgWords, err, words)
		}
	}
	small, large := arrays.DeviceScanShapeFor(1<<24-1), arrays.DeviceScanShapeFor(1<<24)
	if small.Tile() >= large.Tile() {
		t.Errorf("tiles of %d elements below 2^24 and %d from there, want larger ones from there", small.Tile(),
			large.Tile())
	}
}
