package eval

import (
	"context"
	"fmt"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/ir"
)

// chainKernel is a kernel in which each block takes a ticket from an
// atomic counter, waits (AtomicLoad with Acquire in a loop) for the block
// with the ticket before it to publish its running total in flags, and
// publishes its own (AtomicStore with Release): out[t] = 1 + 2 + ... +
// (t+1). Blocks wait only for blocks that took their tickets earlier.
func chainKernel() (*ir.Kernel, *ir.Array, *ir.Array, *ir.Array) {
	counter := global("counter", ir.Uint32, ir.ReadWrite)
	flags := global("flags", ir.Uint32, ir.ReadWrite)
	out := global("out", ir.Uint32, ir.Output)
	ticket, before := index("ticket"), index("before")
	load := func(line int) ir.Stmt {
		return &ir.Atomic{Op: ir.AtomicLoad, Order: ir.Acquire, Array: flags, Index: sub(ticket, u32(1)),
			Result: before, Pos: at(line)}
	}
	body := []ir.Stmt{
		decl(ticket, u32(0), 600),
		&ir.Atomic{Op: ir.AtomicAdd, Array: counter, Index: u32(0), Value: u32(1), Result: ticket, Pos: at(601)},
		decl(before, u32(0), 602),
		&ir.If{Cond: bin(ir.Gt, ticket, u32(0)), Pos: at(603), Then: []ir.Stmt{
			load(604),
			&ir.While{Cond: eq(before, u32(0)), Body: []ir.Stmt{load(606)}, Pos: at(605)},
			&ir.Assign{Var: before, Value: sub(before, u32(1)), Pos: at(607)},
		}},
		st(out, ticket, add(before, add(ticket, u32(1))), 608),
		&ir.Atomic{Op: ir.AtomicStore, Order: ir.Release, Array: flags, Index: ticket,
			Value: add(add(before, add(ticket, u32(1))), u32(1)), Pos: at(609)},
	}
	return blockKernel([]*ir.Array{counter, flags, out}, body...), counter, flags, out
}

func TestBlocksWaitForEarlierTicketsWithoutRaces(t *testing.T) {
	manyWorkers(t)
	k, _, _, _ := chainKernel()
	for _, blocks := range []int{1, 2, 37, 120} {
		for _, reversed := range []bool{false, true} {
			reversedBlocks = reversed
			for range 2 {
				out := NewBuffer(ir.Uint32, blocks)
				err := Launch(k, Config{Blocks: blocks},
					bufArgs(NewBuffer(ir.Uint32, 1), NewBuffer(ir.Uint32, blocks), out))
				if err != nil {
					reversedBlocks = false
					t.Fatalf("%d blocks, reversed %v: %v", blocks, reversed, err)
				}
				for i, got := range u32s(out) {
					if want := uint32((i + 1) * (i + 2) / 2); got != want {
						reversedBlocks = false
						t.Fatalf("%d blocks, reversed %v: out[%d] = %d, want %d", blocks, reversed, i, got, want)
					}
				}
			}
		}
	}
	reversedBlocks = false
}

// spinKernel is a kernel whose blocks wait for flags[0] to become nonzero,
// which no block ever writes.
func spinKernel() *ir.Kernel {
	flags := global("flags", ir.Uint32, ir.ReadWrite)
	seen := index("seen")
	load := &ir.Atomic{Op: ir.AtomicLoad, Order: ir.Acquire, Array: flags, Index: u32(0), Result: seen, Pos: at(701)}
	return blockKernel([]*ir.Array{flags},
		decl(seen, u32(0), 700),
		&ir.While{Cond: eq(seen, u32(0)), Body: []ir.Stmt{load}, Pos: at(702)})
}

// TestAWaitNothingEndsIsReported checks that blocks waiting for a value no
// block writes end the launch with an error at the loop, on one worker
// and on several, without a context.
func TestAWaitNothingEndsIsReported(t *testing.T) {
	for _, workers := range []int{1, 4} {
		for _, blocks := range []int{1, 3, 64} {
			t.Run(fmt.Sprintf("%d workers, %d blocks", workers, blocks), func(t *testing.T) {
				saved := goruntime.GOMAXPROCS(workers)
				defer goruntime.GOMAXPROCS(saved)
				err := launchWithin(t, 20*time.Second, spinKernel(), Config{Blocks: blocks},
					bufArgs(NewBuffer(ir.Uint32, 1)))
				wantError(t, err, "user.go:702", "loop waits for ever", "AtomicLoad")
			})
		}
	}
}

// TestAWaitIsCancelled checks that a context ends a wait loop.
func TestAWaitIsCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := launchWithin(t, 20*time.Second, spinKernel(), Config{Blocks: 2, Context: ctx},
		bufArgs(NewBuffer(ir.Uint32, 1)))
	wantError(t, err, "cancelled")
}

// launchWithin launches k and fails the test when the launch does not
// return within limit.
func launchWithin(t *testing.T, limit time.Duration, k *ir.Kernel, cfg Config, args []Arg) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- Launch(k, cfg, args) }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		t.Fatalf("launch still running after %v", limit)
		return nil
	}
}

// TestAWaitWhoseBlockEndsMeanwhileGoesOn checks the moment a flaky run
// once hit: while a worker yields in its wait loop, the block it waits for
// publishes its value and ends, so that the stalled workers then number
// the running ones. The publish must end the stall, not be reported as a
// wait that nothing can end.
func TestAWaitWhoseBlockEndsMeanwhileGoesOn(t *testing.T) {
	m := &machine{run: &run{}, seen: map[string]int{}}
	m.run.running.Store(2) // this worker's block and the one it waits for
	m.wait = waitState{active: true, steps: stallSteps - stepBatch}
	saved := yield
	defer func() { yield = saved }()
	yield = func() {
		m.run.changes.Add(1)  // the other block publishes
		m.run.running.Add(-1) // and ends
	}
	if !m.stillWaiting(at(710)) {
		t.Fatalf("the wait was reported as one that cannot end: %v", m.findings)
	}
	if got := m.run.stalled.Load(); got != 0 {
		t.Errorf("%d workers stalled after the publish, want 0", got)
	}
	if m.wait.stalled || m.wait.steps != 0 || m.wait.seen != 1 {
		t.Errorf("wait state %+v, want the publish seen and the steps counted again", m.wait)
	}
}
