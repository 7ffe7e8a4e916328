package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// peersKernel writes, for each of the n elements x of its input (n a
// multiple of 256, one lane each), WarpPeers of x's low bits bits, the Agree of x < 2^31 (a
// bool predicate) and the Ballot of x & 4 != 0 (an integer tested against
// zero), into three outputs.
func peersKernel(bits, n int) *dsl.Kernel {
	k := dsl.NewKernel(fmt.Sprintf("peers%d", bits), 256)
	in := dsl.Input[uint32](k, "in")
	peers := dsl.Output[uint32](k, "peers")
	agree := dsl.Output[uint32](k, "agree")
	ballot := dsl.Output[uint32](k, "ballot")
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(uint32(n/256)), func(b *dsl.Block, block dsl.U32) {
			b.ForAll(dsl.N(256), func(t *dsl.Thread, tid dsl.U32) {
				i := dsl.Let(t, block.Mul(dsl.N(256)).Add(tid)).Exp
				x := dsl.Let(t, in.At(i))
				peers.Store(t, i, arrays.WarpPeers(t, x.Exp, bits))
				agree.Store(t, i, dsl.Agree(t, x.Lt(dsl.N(1<<31))))
				ballot.Store(t, i, dsl.Ballot(t, x.And(dsl.N(4)).Ne(dsl.N(0))))
			})
		})
	})
	return k
}

// peersModel is what peersKernel writes, in Go.
func peersModel(xs []uint32, bits int) (peers, agree, ballot []uint32) {
	n := len(xs)
	peers, agree, ballot = make([]uint32, n), make([]uint32, n), make([]uint32, n)
	mask := uint32(1)<<bits - 1
	for w := 0; w < n; w += ir.WarpSize {
		var low, set uint32
		for l := 0; l < ir.WarpSize && w+l < n; l++ {
			if xs[w+l] < 1<<31 {
				low |= 1 << l
			}
			if xs[w+l]&4 != 0 {
				set |= 1 << l
			}
		}
		for l := 0; l < ir.WarpSize && w+l < n; l++ {
			i := w + l
			for m := 0; m < ir.WarpSize && w+m < n; m++ {
				if xs[w+m]&mask == xs[i]&mask {
					peers[i] |= 1 << m
				}
			}
			agree[i], ballot[i] = low, set
			if xs[i] >= 1<<31 {
				agree[i] = ^low
			}
		}
	}
	return peers, agree, ballot
}

// peersInputs returns n keys: any, few distinct, or all equal.
func peersInputs(r *rand.Rand, n int) map[string][]uint32 {
	anyKeys, few, equal := make([]uint32, n), make([]uint32, n), make([]uint32, n)
	same := r.Uint32()
	for i := range n {
		anyKeys[i], few[i], equal[i] = r.Uint32(), []uint32{3, 1 << 31, 0xffff_ff07}[r.IntN(3)], same
	}
	return map[string][]uint32{"any": anyKeys, "few": few, "equal": equal}
}

// checkPeers runs peersKernel on dev for digits of 1 to MaxDigitBits bits
// and compares it with Go.
func checkPeers(t *testing.T, dev runtime.Device, r *rand.Rand) {
	const n = 32 * 256 // whole warps: the kernel's lanes all vote
	for bits := 1; bits <= arrays.MaxDigitBits; bits++ {
		for name, xs := range peersInputs(r, n) {
			got, err := run(dev, peersKernel(bits, n), xs, n, n, n)
			if err != nil {
				t.Fatalf("%d bits, %s keys: %v", bits, name, err)
			}
			peers, agree, ballot := peersModel(xs, bits)
			for j, want := range [][]uint32{peers, agree, ballot} {
				if d := differ(fmt.Sprintf("output %d", j), got[j], want); d != "" {
					t.Errorf("%d bits, %s keys on %s: %s", bits, name, dev, d)
				}
			}
		}
	}
}

// TestWarpPeersAgreeBallot checks WarpPeers, Agree and Ballot against
// their definitions in Go, on the CPU device.
func TestWarpPeersAgreeBallot(t *testing.T) {
	checkPeers(t, runtime.CPU(), rand.New(rand.NewPCG(freshSeed(t), 2)))
}

// TestGPUWarpPeersAgreeBallot checks the same on the GPU (Agree is inline
// PTX there, and a Ballot of x != 0 passes x itself to the vote).
func TestGPUWarpPeersAgreeBallot(t *testing.T) {
	checkPeers(t, gputest.Open(t), rand.New(rand.NewPCG(freshSeed(t), 2)))
}
