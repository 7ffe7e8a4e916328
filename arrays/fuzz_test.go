package arrays_test

import (
	"encoding/binary"
	"testing"

	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// FuzzCollectives runs Scan, ScanExclusive and Reduce over the fuzzer's
// values (up to 1024 of them) with one of u32Ops, at Warp or Block level,
// in a block of 32 to 128 threads, and compares them with the sequential
// scans.
func FuzzCollectives(f *testing.F) {
	f.Add(uint8(0), false, uint8(0), []byte{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0})
	f.Add(uint8(4), true, uint8(1), make([]byte, 4*33))
	f.Add(uint8(5), true, uint8(3), []byte("an affine map of every four bytes, combined in order!!"))
	dev := runtime.CPU()
	f.Fuzz(func(t *testing.T, op uint8, block bool, warps uint8, data []byte) {
		o := u32Ops[int(op)%len(u32Ops)]
		threads := (int(warps)%4 + 1) * ir.WarpSize
		xs := make([]uint32, min(len(data)/4, 1024))
		for i := range xs {
			xs[i] = binary.LittleEndian.Uint32(data[4*i:])
		}
		msg := checkCollective(dev, o, threads, atWarp, xs)
		if block {
			msg = checkCollective(dev, o, threads, atBlock, xs)
		}
		if msg != "" {
			t.Fatal(msg)
		}
	})
}
