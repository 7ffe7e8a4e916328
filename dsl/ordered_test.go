package dsl_test

import (
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
)

// TestMemoryOrderingsAreChecked checks that a load with Release, a store
// with Acquire and a load of an input are errors at the user's line, and
// that the allowed orderings, a fence and a sleep build, and that a sleep
// past a millisecond is an error there too.
func TestMemoryOrderingsAreChecked(t *testing.T) {
	build := func(body func(t *dsl.Thread, in, flags dsl.Array[uint32])) error {
		k := dsl.NewKernel("ordered", 32)
		in := dsl.Input[uint32](k, "in")
		flags := dsl.InOut[uint32](k, "flags")
		k.Body(func(g *dsl.Grid) {
			g.ForAll(dsl.N(32), func(t *dsl.Thread, i dsl.U32) { body(t, in, flags) })
		})
		_, err := k.Build()
		return err
	}
	if err := build(func(t *dsl.Thread, _, flags dsl.Array[uint32]) {
		x := flags.AtomicLoad(t, dsl.N(0), dsl.Acquire)
		dsl.Fence(t)
		dsl.Sleep(t, 100)
		flags.AtomicStore(t, dsl.N(1), x.Add(flags.AtomicLoad(t, dsl.N(2), dsl.Relaxed)), dsl.Release)
		flags.AtomicStore(t, dsl.N(3), x, dsl.Relaxed)
	}); err != nil {
		t.Fatalf("allowed orderings: %v", err)
	}
	for _, c := range []struct {
		name string
		body func(t *dsl.Thread, in, flags dsl.Array[uint32])
		want string
	}{
		{"a load with Release", func(t *dsl.Thread, _, flags dsl.Array[uint32]) {
			flags.AtomicStore(t, dsl.N(0), flags.AtomicLoad(t, dsl.N(1), dsl.Release), dsl.Relaxed)
		}, "atomic Load with memory ordering Release"},
		{"a store with Acquire", func(t *dsl.Thread, _, flags dsl.Array[uint32]) {
			flags.AtomicStore(t, dsl.N(0), dsl.N(1), dsl.Acquire)
		}, "atomic Store with memory ordering Acquire"},
		{"a load of an input", func(t *dsl.Thread, in, flags dsl.Array[uint32]) {
			flags.AtomicStore(t, dsl.N(0), in.AtomicLoad(t, dsl.N(0), dsl.Relaxed), dsl.Relaxed)
		}, "input"},
		{"a sleep past a millisecond", func(t *dsl.Thread, _, _ dsl.Array[uint32]) {
			dsl.Sleep(t, 1_000_001)
		}, "a sleep of 1000001 ns"},
	} {
		err := build(c.body)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "ordered_test.go:") {
			t.Errorf("%s: error %v, want one at ordered_test.go mentioning %q", c.name, err, c.want)
		}
	}
}
