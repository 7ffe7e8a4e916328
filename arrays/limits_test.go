package arrays_test

import (
	"strings"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// sklanskyLevel is one level of the paper's Sklansky scan.
func sklanskyLevel(a arrays.Pull[uint32]) arrays.Pull[uint32] {
	a1, a2 := arrays.Halve(a)
	last := arrays.Last(a1)
	return arrays.Append(a1, arrays.Map(a2, func(x dsl.U32) dsl.U32 { return x.Add(last) }))
}

// TestScanWithoutComputeIsAnError builds the Sklansky scan of 2^8 elements
// without computing each level into shared memory: its expressions grow
// exponentially (10^8 nodes), which ran for minutes. Build must report the
// limit at the user's line, quickly.
func TestScanWithoutComputeIsAnError(t *testing.T) {
	start := time.Now()
	const logN = 8
	k := dsl.NewKernel("forgotCompute", 1<<logN)
	in, out := dsl.Input[uint32](k, "in"), dsl.Output[uint32](k, "out")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			a := arrays.Take(dsl.N(1<<logN), arrays.FromArray(in))
			for i := 0; i < logN; i++ {
				a = arrays.BinSplit(logN-1-i, sklanskyLevel, a) // no arrays.Compute
			}
			arrays.WriteTo(b, out, arrays.ToPush[*dsl.Block](a))
		})
	})
	_, err := k.Build()
	if err == nil {
		t.Fatal("Build accepted expressions of 10^8 nodes")
	}
	if !strings.Contains(err.Error(), "limits_test.go:") || !strings.Contains(err.Error(), "grew past") {
		t.Errorf("the error does not name the user's line and the limit: %.600s", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("building took %v", d)
	}
}
