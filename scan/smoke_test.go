package scan_test

import (
	"testing"

	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/scan"
)

func TestSmoke(t *testing.T) {
	dev := runtime.CPU()
	for _, n := range []int{1, 5, 4096, 4097, 3*4096 + 11} {
		xs := make([]uint32, n)
		for i := range xs {
			xs[i] = uint32(i*7 + 3)
		}
		in, _ := runtime.FromSlice(dev, xs)
		out, _ := runtime.Alloc[uint32](dev, n)
		if err := scan.ExclusiveSum(dev, in, out); err != nil {
			t.Fatal(err)
		}
		got, _ := out.ToSlice()
		acc := uint32(0)
		for i, x := range xs {
			if got[i] != acc {
				t.Fatalf("n %d: out[%d] = %d, want %d", n, i, got[i], acc)
			}
			acc += x
		}
	}
}
