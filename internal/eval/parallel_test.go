package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	goruntime "runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/ir"
)

// The blocks of a launch run on several workers at once, in an order that
// varies from run to run: these tests run each launch repeats times, on
// at least four workers.
const repeats = 20

// manyWorkers raises GOMAXPROCS to at least 4 for the test.
func manyWorkers(t *testing.T) {
	saved := goruntime.GOMAXPROCS(max(4, goruntime.GOMAXPROCS(0)))
	t.Cleanup(func() { goruntime.GOMAXPROCS(saved) })
}

func eq(x, y ir.Expr) ir.Expr  { return bin(ir.Eq, x, y) }
func rem(x, y ir.Expr) ir.Expr { return bin(ir.Rem, x, y) }

// blockKernel is a kernel of 32 threads whose Grid-level body (uniform:
// once per block) is body.
func blockKernel(arrays []*ir.Array, body ...ir.Stmt) *ir.Kernel {
	return kernel(32, arrays, nil, body...)
}

func TestRacesBetweenBlocksAreFoundWhicheverRunsFirst(t *testing.T) {
	manyWorkers(t)
	out := global("out", ir.Uint32, ir.ReadWrite)
	b := special(ir.BlockIdx)
	for _, c := range []struct {
		name   string
		kernel *ir.Kernel
		want   []string
	}{
		{"writes", blockKernel([]*ir.Array{out}, st(out, rem(b, u32(7)), b, 501)),
			[]string{"user.go:501", "data race on out[", "write by thread 0 of block", "a write by another block"}},
		{"a read and a write", blockKernel([]*ir.Array{out},
			st(out, rem(add(b, u32(1)), u32(64)), ld(out, b, 502), 502)),
			[]string{"user.go:502", "data race on out[", "by another block"}},
		{"a write and atomics", blockKernel([]*ir.Array{out},
			&ir.If{Cond: eq(rem(b, u32(2)), u32(0)), Pos: at(503),
				Then: []ir.Stmt{&ir.Atomic{Op: ir.AtomicAdd, Array: out, Index: u32(0), Value: u32(1), Pos: at(504)}},
				Else: []ir.Stmt{st(out, u32(0), b, 505)}}),
			[]string{"data race on out[0]", "by another block"}},
		{"SameValue writes of two values", blockKernel([]*ir.Array{out},
			&ir.Store{Array: out, Index: u32(0), Value: rem(b, u32(2)), SameValue: true, Pos: at(506)}),
			[]string{"user.go:506", "data race on out[0]", "a write by another block"}},
	} {
		for range repeats {
			err := Launch(c.kernel, Config{Blocks: 64}, bufArgs(NewBuffer(ir.Uint32, 64)))
			if err == nil {
				t.Fatalf("%s: no race found", c.name)
			}
			wantError(t, err, c.want...)
		}
	}

	// Accesses of several blocks that do not conflict.
	for _, c := range []struct {
		name   string
		kernel *ir.Kernel
		check  func([]uint32) bool
	}{
		{"atomic adds", blockKernel([]*ir.Array{out},
			&ir.Atomic{Op: ir.AtomicAdd, Array: out, Index: rem(b, u32(7)), Value: u32(1), Pos: at(510)}),
			func(got []uint32) bool { return got[0] == 10 && got[6] == 9 }},
		{"SameValue writes of one value", blockKernel([]*ir.Array{out},
			&ir.Store{Array: out, Index: rem(b, u32(3)), Value: u32(1), SameValue: true, Pos: at(511)}),
			func(got []uint32) bool { return got[0] == 1 && got[2] == 1 && got[3] == 0 }},
		{"reads of atomically updated cells", blockKernel([]*ir.Array{out, global("seen", ir.Uint32, ir.Output)},
			&ir.Atomic{Op: ir.AtomicMax, Array: out, Index: rem(b, u32(5)), Value: b, Pos: at(512)},
			decl(index("x"), ld(out, rem(add(b, u32(1)), u32(5)), 513), 513)),
			func(got []uint32) bool { return got[0] == 60 && got[4] == 59 }},
	} {
		for range repeats {
			buf := NewBuffer(ir.Uint32, 64)
			args := bufArgs(buf)
			if len(c.kernel.Params) == 2 {
				args = bufArgs(buf, NewBuffer(ir.Uint32, 64))
			}
			if err := Launch(c.kernel, Config{Blocks: 64}, args); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if got := u32s(buf); !c.check(got) {
				t.Fatalf("%s: out = %v", c.name, got)
			}
		}
	}
}

func TestReportsAreThoseOfTheBlocksInOrder(t *testing.T) {
	for _, reversed := range []bool{false, true} {
		reversedBlocks = reversed
		t.Run(fmt.Sprintf("reversed=%v", reversed), checkReportsFollowBlocks)
	}
	reversedBlocks = false
}

func checkReportsFollowBlocks(t *testing.T) {
	manyWorkers(t)
	// Blocks 40 to 63 write past the end of out: the launch stops at block
	// 40's first write, as a run of the blocks in order does.
	out := global("out", ir.Uint32, ir.Output)
	i := index("i")
	k := kernel(32, []*ir.Array{out}, nil,
		forAll(ir.BlockThreads, i, u32(32), 520, st(out, add(mul(special(ir.BlockIdx), u32(32)), i), i, 521)))
	want := "user.go:521: write to out[1280] out of bounds (length 1280)"
	for range repeats {
		err := Launch(k, Config{Blocks: 64}, bufArgs(NewBuffer(ir.Uint32, 40*32)))
		if err == nil || err.Error() != want {
			t.Fatalf("launch: %v, want %q", err, want)
		}
	}

	// Block b < 12 races at line 530+b: the first ten races, those of
	// blocks 0 to 9, are reported, in that order.
	var body []ir.Stmt
	for b := range 12 {
		body = append(body, &ir.If{Cond: eq(special(ir.BlockIdx), u32(uint32(b))), Pos: at(529),
			Then: []ir.Stmt{forAll(ir.BlockThreads, i, u32(32), 529, st(out, u32(uint32(b)), i, 530+b))}})
	}
	k = kernel(32, []*ir.Array{out}, nil, body...)
	var first string
	for range repeats {
		err := Launch(k, Config{Blocks: 64}, bufArgs(NewBuffer(ir.Uint32, 64)))
		if err == nil {
			t.Fatal("no race found")
		}
		lines := strings.Split(err.Error(), "\n")
		if len(lines) != maxErrors {
			t.Fatalf("%d problems reported, want %d:\n%v", len(lines), maxErrors, err)
		}
		for b, line := range lines {
			if !strings.HasPrefix(line, fmt.Sprintf("user.go:%d: data race on out[%d]: write by thread 1 of block %d", 530+b, b, b)) {
				t.Fatalf("problem %d is %q", b, line)
			}
		}
		if first == "" {
			first = err.Error()
		} else if err.Error() != first {
			t.Fatalf("a launch reported\n%v\nanother\n%v", first, err)
		}
	}
}

func TestOrderDependentAtomicsRunTheBlocksInOrder(t *testing.T) {
	manyWorkers(t)
	b := special(ir.BlockIdx)
	// Float additions round differently in another order.
	in, sum := global("in", ir.Float32, ir.Input), global("sum", ir.Float32, ir.Output)
	values := NewBuffer(ir.Float32, 64)
	var want float32
	for i := range 64 {
		v := float32(math.Pow(-3, float64(i%17))) + float32(i)/7
		values.Set(i, valueOf(v))
		want += v
	}
	add := blockKernel([]*ir.Array{in, sum}, &ir.Atomic{Op: ir.AtomicAdd, Array: sum, Index: u32(0), Value: ld(in, b, 540), Pos: at(540)})
	// Each block takes a ticket and writes its index at it: the tickets
	// follow the blocks.
	counter, order := global("counter", ir.Uint32, ir.ReadWrite), global("order", ir.Uint32, ir.Output)
	ticket := index("ticket")
	take := blockKernel([]*ir.Array{counter, order},
		&ir.Atomic{Op: ir.AtomicAdd, Array: counter, Index: u32(0), Value: u32(1), Result: ticket, Pos: at(541)},
		st(order, ticket, b, 542))
	// The last exchange is the last block's.
	last := global("last", ir.Uint32, ir.Output)
	exch := blockKernel([]*ir.Array{last}, &ir.Atomic{Op: ir.AtomicExch, Array: last, Index: u32(0), Value: b, Pos: at(543)})
	for range repeats {
		got := NewBuffer(ir.Float32, 1)
		if err := Launch(add, Config{Blocks: 64}, bufArgs(values, got)); err != nil {
			t.Fatal(err)
		}
		if g := float32(got.Get(0).Float()); math.Float32bits(g) != math.Float32bits(want) {
			t.Fatalf("sum %v, want %v (the blocks' values added in order)", g, want)
		}
		orderBuf, lastBuf := NewBuffer(ir.Uint32, 64), NewBuffer(ir.Uint32, 1)
		if err := errors.Join(Launch(take, Config{Blocks: 64}, bufArgs(NewBuffer(ir.Uint32, 1), orderBuf)),
			Launch(exch, Config{Blocks: 64}, bufArgs(lastBuf))); err != nil {
			t.Fatal(err)
		}
		if got := u32s(orderBuf); !slices.Equal(got, u32s(iota32(64))) {
			t.Fatalf("tickets went to blocks %v", got)
		}
		if got := u32s(lastBuf)[0]; got != 63 {
			t.Fatalf("last exchange by block %d, want 63", got)
		}
	}
}

func TestParallelAtomicsLoseNoUpdate(t *testing.T) {
	manyWorkers(t)
	const n = 1 << 15
	keys, want := NewBuffer(ir.Uint32, n), make([]uint32, 16)
	for i := range n {
		k := uint32(i*7919%16+i/4096) % 16
		keys.Set(i, valueOf(k))
		want[k]++
	}
	for range 5 {
		hist := NewBuffer(ir.Uint32, 16)
		if err := Launch(histogramKernel(true), Config{Blocks: 256}, bufArgs(keys, hist)); err != nil {
			t.Fatal(err)
		}
		if got := u32s(hist); !slices.Equal(got, want) {
			t.Fatalf("hist = %v, want %v", got, want)
		}
	}
}

func TestRacesBetweenPhasesOfBlocks(t *testing.T) {
	saved := phaseBlocks
	phaseBlocks = 3
	t.Cleanup(func() { phaseBlocks = saved })
	manyWorkers(t)
	out := global("out", ir.Uint32, ir.ReadWrite)
	b := special(ir.BlockIdx)
	// Blocks 0, 3, 6 and 9, each the first of its phase, write out[0],
	// and so on.
	err := Launch(blockKernel([]*ir.Array{out}, st(out, rem(b, u32(3)), b, 550)), Config{Blocks: 10}, bufArgs(NewBuffer(ir.Uint32, 3)))
	wantError(t, err, "user.go:550", "data race on out[", "a write by another block")
	// Block 0 reads out[0], which block 6 writes.
	k := blockKernel([]*ir.Array{out}, &ir.If{Cond: eq(b, u32(6)), Pos: at(551),
		Then: []ir.Stmt{st(out, u32(0), b, 552)}, Else: []ir.Stmt{decl(index("x"), ld(out, b, 553), 553)}})
	err = Launch(k, Config{Blocks: 10}, bufArgs(NewBuffer(ir.Uint32, 10)))
	wantError(t, err, "data race on out[0]", "by another block")
	// Blocks that each write their own cells, and atomics of all blocks
	// on one cell, do not race across phases.
	own := blockKernel([]*ir.Array{out}, st(out, b, b, 554), &ir.Atomic{Op: ir.AtomicAdd, Array: out, Index: u32(10),
		Value: u32(1), Pos: at(555)})
	buf := NewBuffer(ir.Uint32, 11)
	if err := Launch(own, Config{Blocks: 10}, bufArgs(buf)); err != nil {
		t.Fatal(err)
	}
	if got := u32s(buf); got[9] != 9 || got[10] != 10 {
		t.Fatalf("out = %v", got)
	}
}

// longLoopKernel runs a loop of 2^27 steps in one thread of one block.
func longLoopKernel() *ir.Kernel {
	out := global("out", ir.Uint32, ir.Output)
	i, j := index("i"), index("j")
	return kernel(32, []*ir.Array{out}, nil, forAll(ir.BlockThreads, i, u32(1), 560,
		&ir.For{Var: j, Count: u32(1 << 27), Pos: at(561), Body: []ir.Stmt{st(out, u32(0), j, 562)}}))
}

func TestCancelInsideABlock(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		done <- Launch(longLoopKernel(), Config{Blocks: 1, Context: ctx}, bufArgs(NewBuffer(ir.Uint32, 1)))
	}()
	select {
	case err := <-done:
		took := time.Since(start)
		t.Logf("cancelled after %v: %v", took, err)
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "kernel k cancelled in block 0 of 1") {
			t.Fatalf("launch past its deadline: %v, want a cancellation in block 0", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a launch whose context ended after 200ms still runs after 10s")
	}
}

// TestParallelLaunchesMatchLaunchesInOrder launches generated kernels
// (correct, or changed so that they fault or race within a block) on one
// worker, which runs the blocks in order, on one worker running the last
// block first, and on several: all report the same problems, and a launch
// without problems computes the same.
func TestParallelLaunchesMatchLaunchesInOrder(t *testing.T) {
	saved := maxLaunchSteps
	maxLaunchSteps = 1 << 14
	t.Cleanup(func() { maxLaunchSteps = saved })
	// Aliased arguments and ill-formed kernels race between blocks, and
	// which of two racing accesses is named depends on the order.
	changes := []int{asGenerated, compiled, moreBlocks, shortened, wrongArguments, brokenLayout}
	t.Cleanup(func() { reversedBlocks = false })
	runs := []struct {
		name     string
		workers  int
		reversed bool
	}{{"in order", 1, false}, {"last block first", 1, true}, {"on 4 workers", 4, false}}
	props := properties(t)
	props.Property("the orders agree", prop.ForAll(func(seed int64, blocks, change, depth uint8) string {
		how := changes[int(change)%len(changes)]
		var results []string
		for _, run := range runs {
			saved := goruntime.GOMAXPROCS(run.workers)
			reversedBlocks = run.reversed
			k, args, nblocks := fuzzLaunch(t, seed, int(blocks), how, int(depth%4))
			err := Launch(k, Config{Blocks: nblocks}, args)
			goruntime.GOMAXPROCS(saved)
			result := fmt.Sprint(err)
			if err == nil {
				for _, a := range args {
					if a.Buffer != nil {
						result += fmt.Sprint(a.Buffer.Data)
					}
				}
			}
			if results = append(results, result); result != results[0] {
				return fmt.Sprintf("change %d: %s:\n%s\n%s:\n%s", how, runs[0].name, results[0], run.name, result)
			}
		}
		return ""
	}, gen.Int64(), gen.UInt8(), gen.UInt8(), gen.UInt8()))
	props.TestingRun(t)
}

// TestAPanicInAWorkerReachesTheLaunch: a worker that panics stops the
// others, and the panic reaches the goroutine of the launch (where Launch
// turns it into an internal error) once no worker runs.
func TestAPanicInAWorkerReachesTheLaunch(t *testing.T) {
	manyWorkers(t)
	var ran atomic.Int64
	var m *machine
	body := func(w *machine) {
		ran.Add(1)
		if w != m && w.block >= 37 { // a worker of its own goroutine
			panic("boom")
		}
		time.Sleep(time.Millisecond)
	}
	m = newMachine(&program{kernel: kernel(32, nil, nil), body: body}, 1000, 32)
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("launch panicked with %v, want boom", r)
			}
		}()
		_ = m.launch()
	}()
	after := ran.Load()
	time.Sleep(20 * time.Millisecond)
	if n := ran.Load(); n != after || n > 200 {
		t.Errorf("%d blocks ran, %d after the launch returned", after, n-after)
	}
}

// TestEnoughFindingsStopOnlyLaterBlocks: a worker that has found maxErrors
// problems stops the blocks after the one of its maxErrors-th earliest
// finding, not after its current block, which may come before blocks it
// ran while others still hold earlier blocks (as when blocks are handed
// out from the last); and it stops its current block only when the
// problem just found is not before that finding.
func TestEnoughFindingsStopOnlyLaterBlocks(t *testing.T) {
	find := func(m *machine, block int) {
		m.block = block
		m.report(false, at(600+block), "race", "problem in block %d", block)
	}
	// Blocks 11, 10 and 8 down to 1, as a worker given the blocks from the
	// last may run them while another worker holds block 9.
	m := &machine{run: newRun(nil), seen: map[string]int{}, fatalAt: never}
	for _, b := range []int{11, 10, 8, 7, 6, 5, 4, 3, 2, 1} {
		m.stop = false
		find(m, b)
	}
	if got := m.run.last(); got != 11 {
		t.Errorf("after problems in blocks 11, 10 and 8 to 1 the launch stops after block %d, want 11 (block 9 may come first)", got)
	}
	if m.stop {
		t.Error("block 1's problem is among the first ten, yet its block was stopped")
	}
	// Blocks 12 to 20, then block 5: block 5 must run on.
	m = &machine{run: newRun(nil), seen: map[string]int{}, fatalAt: never}
	for b := 12; b <= 20; b++ {
		m.stop = false
		find(m, b)
	}
	m.stop = false
	find(m, 5)
	if m.stop || m.run.last() != 20 {
		t.Errorf("after problems in blocks 12 to 20 and 5: stop %v, launch stops after block %d; want block 5 to run on and the launch to stop after 20",
			m.stop, m.run.last())
	}
	// Blocks 1 to 10 in order: the tenth problem ends its block and the launch.
	m = &machine{run: newRun(nil), seen: map[string]int{}, fatalAt: never}
	for b := 1; b <= 10; b++ {
		m.stop = false
		find(m, b)
	}
	if !m.stop || m.run.last() != 10 {
		t.Errorf("after problems in blocks 1 to 10: stop %v, launch stops after block %d; want block 10 stopped and the launch after it",
			m.stop, m.run.last())
	}
}
