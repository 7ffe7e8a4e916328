package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/ir"
)

// TestBadInputCatalogue launches bad kernels, grids and arguments: each
// must be an error saying what is wrong, within a deadline, never a panic.
func TestBadInputCatalogue(t *testing.T) {
	out := global("out", ir.Uint32, ir.Output)
	i := index("i")
	store := kernel(32, []*ir.Array{out}, nil, forAll(ir.GridThreads, i, u32(32), 600, st(out, i, i, 601)))
	var many []*ir.Array
	for n := range maxArrays + 1 {
		many = append(many, shared(fmt.Sprintf("s%d", n), ir.Uint32, 1))
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	rows := []struct {
		name string
		call func() error
		is   error  // the error must wrap it (nil: no sentinel to check)
		want string // the error message must contain it
	}{
		{"nil kernel", func() error { return Launch(nil, Config{Blocks: 1}, nil) }, nil, "nil kernel"},
		{"0 threads", func() error { return Launch(kernel(0, nil, nil), Config{Blocks: 1}, nil) }, nil, "0 threads per block"},
		{"0 blocks", func() error { return Launch(store, Config{Blocks: 0}, bufArgs(NewBuffer(ir.Uint32, 32))) }, nil,
			"with 0 blocks"},
		{"2^31 blocks", func() error {
			return Launch(store, Config{Blocks: math.MaxInt32 + 1}, bufArgs(NewBuffer(ir.Uint32, 32)))
		}, nil, "with 2147483648 blocks"},
		{"nil kernel compiled", func() error { _, err := Compile(nil); return err }, nil, "compile of a nil kernel"},
		{"0 threads compiled", func() error { _, err := Compile(kernel(0, nil, nil)); return err }, nil,
			"0 threads per block"},
		{"a Program not from Compile", func() error { return new(Program).Launch(Config{Blocks: 1}, nil) }, nil,
			"a program that Compile did not return"},
		{"0 blocks of a Program", func() error {
			p, err := Compile(store)
			if err != nil {
				return err
			}
			return p.Launch(Config{Blocks: 0}, bufArgs(NewBuffer(ir.Uint32, 32)))
		}, nil, "with 0 blocks"},
		{"no argument", func() error { return Launch(store, Config{Blocks: 1}, nil) }, nil, "takes 1 arguments, got 0"},
		{"a buffer of another type", func() error { return Launch(store, Config{Blocks: 1}, bufArgs(NewBuffer(ir.Int32, 32))) },
			nil, "is a buffer of int32, want uint32"},
		{"more arrays than the evaluator takes", func() error { return Launch(kernel(32, nil, many), Config{Blocks: 1}, nil) },
			nil, fmt.Sprintf("has %d arrays; the evaluator takes at most %d", maxArrays+1, maxArrays)},
		{"a shared array too large", func() error {
			return Launch(kernel(32, nil, []*ir.Array{shared("huge", ir.Uint64, 1<<40)}), Config{Blocks: 1}, nil)
		}, nil, "shared array huge of 1099511627776 elements"},
		{"an out-of-bounds store in a later block", func() error {
			return Launch(store, Config{Blocks: 3}, bufArgs(NewBuffer(ir.Uint32, 16)))
		}, nil, "user.go:601: write to out[16] out of bounds (length 16)"},
		{"a cancelled context", func() error {
			return Launch(store, Config{Blocks: 1, Context: cancelled}, bufArgs(NewBuffer(ir.Uint32, 32)))
		}, context.Canceled, "cancelled before block 0 of 1"},
		{"a context that ends within a block", func() error {
			soon, stop := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer stop()
			return Launch(longLoopKernel(), Config{Blocks: 1, Context: soon}, bufArgs(NewBuffer(ir.Uint32, 1)))
		}, context.DeadlineExceeded, "cancelled in block 0 of 1"},
	}
	for _, row := range rows {
		done := make(chan error, 1)
		go func() {
			defer func() {
				if r := recover(); r != nil {
					done <- fmt.Errorf("panic: %v", r)
				}
			}()
			done <- row.call()
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: no answer within 20s", row.name)
		}
		switch {
		case err == nil:
			t.Errorf("%s: no error, want one saying %q", row.name, row.want)
		case strings.HasPrefix(err.Error(), "panic: ") || strings.Contains(err.Error(), "internal error"):
			t.Errorf("%s: %v", row.name, err)
		case row.is != nil && !errors.Is(err, row.is):
			t.Errorf("%s: %v, want an error wrapping %v", row.name, err, row.is)
		case !strings.Contains(err.Error(), row.want):
			t.Errorf("%s: %v, want an error saying %q", row.name, err, row.want)
		}
	}
}
