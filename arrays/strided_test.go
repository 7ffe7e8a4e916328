package arrays_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
)

// stridedKernel returns a kernel whose threads (threads of them in one
// block) visit in with EachStrided from their index in batches of batch,
// by the stride stride returns for the kernel (a parameter or a
// constant): each visit adds 1 to visits[i], stores the value seen plus 1
// in seen[i] and the thread's count of visits before it in order[i].
func stridedKernel(threads int, stride func(k *dsl.Kernel) dsl.U32, batch int) *dsl.Kernel {
	k := dsl.NewKernel("strided", 32)
	in := dsl.Input[uint32](k, "in")
	visits := dsl.InOut[uint32](k, "visits")
	seen := dsl.InOut[uint32](k, "seen")
	order := dsl.InOut[uint32](k, "order")
	by := stride(k)
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
				before := dsl.Let(t, dsl.N(0))
				arrays.EachStrided(t, arrays.FromArray(in), tid, by, batch, func(t *dsl.Thread, i dsl.U32, x dsl.U32) {
					recordVisit(t, visits, seen, order, before, i, x)
				})
			})
		})
	})
	return k
}

// recordVisit records thread t's visit of element i, of value x: 1 more
// visit, x+1 seen, and the thread's count of visits before it (before,
// then counted on).
func recordVisit(t *dsl.Thread, visits, seen, order dsl.Array[uint32], before dsl.Var[uint32], i, x dsl.U32) {
	visits.Atomic(t, dsl.AtomicAdd, i, dsl.N(1))
	seen.Store(t, i, x.Add(dsl.N(1)))
	order.Store(t, i, before.Exp)
	before.Set(before.Add(dsl.N(1)))
}

// strideParam declares the stride as the kernel's last parameter.
func strideParam(k *dsl.Kernel) dsl.U32 { return dsl.Param[uint32](k, "stride") }

// checkStrided runs stridedKernel over n random values on dev and returns
// what differs from a plain strided loop, or "".
func checkStrided(dev runtime.Device, n, threads, stride, batch int, seed uint64) string {
	what := fmt.Sprintf("%d elements, %d threads, stride %d, batches of %d", n, threads, stride, batch)
	return checkVisits(dev, stridedKernel(threads, strideParam, batch), n, seed, 7, what, func(in []uint32) [][3]uint32 {
		want := make([][3]uint32, n)
		for i := range n {
			if i%stride < threads {
				want[i] = [3]uint32{1, in[i] + 1, uint32(i / stride)}
			}
		}
		return want
	}, uint32(stride))
}

// checkVisits launches a kernel of visits (stridedKernel, batchKernel) on
// dev over n random values of seed (and stream) with the scalars after the
// buffers, and returns where the visits, values seen and orders differ
// from those want gives for the values, or "". what says what ran.
func checkVisits(dev runtime.Device, k *dsl.Kernel, n int, seed, stream uint64, what string,
	want func(in []uint32) [][3]uint32, scalars ...any) string {
	r := rand.New(rand.NewPCG(seed, stream))
	in := make([]uint32, n)
	for i := range in {
		in[i] = r.Uint32N(1 << 31)
	}
	kernel, err := k.Build()
	if err != nil {
		return err.Error()
	}
	fn, err := dev.Load(kernel)
	if err != nil {
		return err.Error()
	}
	bufs := make([]*runtime.Buffer[uint32], 4)
	args := make([]any, 0, len(bufs)+len(scalars))
	for i := range bufs {
		src := in
		if i > 0 {
			src = make([]uint32, n) // zero: unvisited
		}
		if bufs[i], err = runtime.FromSlice(dev, src); err != nil {
			return err.Error()
		}
		defer bufs[i].Free()
		args = append(args, bufs[i])
	}
	if err := dev.Launch(fn, runtime.LaunchConfig{}, append(args, scalars...)...); err != nil {
		return err.Error()
	}
	got := make([][]uint32, 3)
	for i := range got {
		if got[i], err = bufs[i+1].ToSlice(); err != nil {
			return err.Error()
		}
	}
	wanted := want(in)
	for i := range n {
		if have := [3]uint32{got[0][i], got[1][i], got[2][i]}; have != wanted[i] {
			return fmt.Sprintf("%s: element %d has visits, value+1 and order %v, want %v", what, i, have, wanted[i])
		}
	}
	return ""
}

// TestEachStridedVisitsLikeALoop checks that every thread visits exactly
// the elements first + k×stride below the length, in increasing k, each
// with its own value, for every batch size, with lengths that are and are
// not multiples of the stride or of the batch.
func TestEachStridedVisitsLikeALoop(t *testing.T) {
	dev := runtime.CPU()
	props := gopter.NewProperties(proptest.Parameters(t, 60))
	props.Property("EachStrided visits first + k×stride in order", prop.ForAll(
		func(n, threads, extra, batch int, seed uint64) string {
			return checkStrided(dev, n, threads, threads+extra, batch, seed)
		},
		gen.IntRange(0, 300), gen.IntRange(1, 40), gen.IntRange(0, 5), gen.IntRange(1, 9), gen.UInt64()))
	props.TestingRun(t)
}

// TestEachStridedRejectsBadShapes checks that a batch below 1 and a
// constant stride of 0 fail the build, naming EachStrided and the
// caller's file.
func TestEachStridedRejectsBadShapes(t *testing.T) {
	for _, c := range []struct {
		stride uint32
		batch  int
	}{{1, 0}, {4, -1}, {0, 4}} {
		stride := func(*dsl.Kernel) dsl.U32 { return dsl.N(c.stride) }
		_, err := stridedKernel(4, stride, c.batch).Build()
		if err == nil || !strings.Contains(err.Error(), "EachStrided") || !strings.Contains(err.Error(), "strided_test.go") {
			t.Errorf("stride %d, batch %d: got %v, want an error naming EachStrided and this file", c.stride, c.batch, err)
		}
	}
}

// batchKernel returns a kernel whose threads (threads of them in one
// block) visit in with EachBatch from their index, each batch's elements
// threads apart (a constant step, or the parameter step when stepParam)
// and the rounds advance apart (a parameter), in batches of batch: each
// visit adds 1 to visits[i], stores the value seen plus 1 in seen[i] and
// the thread's count of visits before it in order[i].
func batchKernel(threads int, stepParam bool, advance func(k *dsl.Kernel) dsl.U32, batch int) *dsl.Kernel {
	k := dsl.NewKernel("batched", 32)
	in := dsl.Input[uint32](k, "in")
	visits := dsl.InOut[uint32](k, "visits")
	seen := dsl.InOut[uint32](k, "seen")
	order := dsl.InOut[uint32](k, "order")
	step := dsl.N(uint32(threads))
	if stepParam {
		step = dsl.Param[uint32](k, "step")
	}
	by := advance(k)
	k.Body(func(g *dsl.Grid) {
		g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
			b.ForAll(dsl.N(uint32(threads)), func(t *dsl.Thread, tid dsl.U32) {
				before := dsl.Let(t, dsl.N(0))
				arrays.EachBatch(t, arrays.FromArray(in), tid, step, by, batch, func(t *dsl.Thread, bt arrays.Batch[uint32]) {
					bt.Each(t, func(t *dsl.Thread, i dsl.U32, x dsl.U32) { recordVisit(t, visits, seen, order, before, i, x) })
				})
			})
		})
	})
	return k
}

// advanceParam declares the advance as the kernel's last parameter.
func advanceParam(k *dsl.Kernel) dsl.U32 { return dsl.Param[uint32](k, "advance") }

// checkBatch runs batchKernel over n random values on dev, the rounds
// gap×threads apart beyond a batch's span, and returns what differs from
// plain loops over the rounds and the batches, or "".
func checkBatch(dev runtime.Device, n, threads, gap, batch int, stepParam bool, seed uint64) string {
	advance := (batch + gap) * threads
	var scalars []any
	if stepParam {
		scalars = append(scalars, uint32(threads))
	}
	what := fmt.Sprintf("%d elements, %d threads, gap %d, batches of %d, step as a parameter %t", n, threads, gap, batch, stepParam)
	return checkVisits(dev, batchKernel(threads, stepParam, advanceParam, batch), n, seed, 9, what, func(in []uint32) [][3]uint32 {
		want := make([][3]uint32, n)
		for tid := range threads {
			k := uint32(0)
			for base := tid; base < n; base += advance {
				for u := range batch {
					if i := base + u*threads; i < n {
						want[i] = [3]uint32{1, in[i] + 1, k}
						k++
					}
				}
			}
		}
		return want
	}, append(scalars, uint32(advance))...)
}

// TestEachBatchVisitsLikeLoops checks that every thread visits exactly
// the elements of its rounds' batches that lie below the length, round
// after round and in order within a batch, each with its own value: with
// lengths that end in a round's full batch, in a partial one or between
// rounds, a constant step and one passed at launch, rounds that follow
// each other (tiles) and rounds with gaps between them.
func TestEachBatchVisitsLikeLoops(t *testing.T) {
	dev := runtime.CPU()
	props := gopter.NewProperties(proptest.Parameters(t, 60))
	props.Property("EachBatch visits base + u×step of each round in order", prop.ForAll(
		func(n, threads, gap, batch int, stepParam bool, seed uint64) string {
			return checkBatch(dev, n, threads, gap, batch, stepParam, seed)
		},
		gen.IntRange(0, 400), gen.IntRange(1, 40), gen.IntRange(0, 3), gen.IntRange(1, 9), gen.Bool(), gen.UInt64()))
	props.TestingRun(t)
}

// TestEachBatchRejectsBadShapes checks that a batch below 1 and a
// constant step or advance of 0 fail the build, naming EachBatch, what
// was 0 and the caller's file.
func TestEachBatchRejectsBadShapes(t *testing.T) {
	for _, c := range []struct {
		threads, advance uint32
		batch            int
		want             string
	}{{4, 8, 0, "batches of 0"}, {4, 8, -1, "batches of -1"}, {0, 8, 2, "a step of 0"}, {4, 0, 2, "an advance of 0"}} {
		advance := func(*dsl.Kernel) dsl.U32 { return dsl.N(c.advance) }
		_, err := batchKernel(int(c.threads), false, advance, c.batch).Build()
		if err == nil || !strings.Contains(err.Error(), "EachBatch") || !strings.Contains(err.Error(), c.want) ||
			!strings.Contains(err.Error(), "strided_test.go") {
			t.Errorf("step %d, advance %d, batch %d: got %v, want an error naming EachBatch, %q and this file",
				c.threads, c.advance, c.batch, err, c.want)
		}
	}
}
