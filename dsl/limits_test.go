package dsl_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
)

// TestDeepExpressionIsAnErrorAtTheUsersLine builds an expression a million
// operations deep, which overflowed the Go stack in Build; it must be an
// error naming the line that built it and suggesting Compute.
func TestDeepExpressionIsAnErrorAtTheUsersLine(t *testing.T) {
	k := dsl.NewKernel("deep", 256)
	in, out := dsl.Input[uint32](k, "in"), dsl.Output[uint32](k, "out")
	var line int
	k.Body(func(g *dsl.Grid) {
		g.ForAll(out.Len(), func(th *dsl.Thread, i dsl.U32) {
			x := in.At(i)
			for range 1000000 {
				x = x.Add(dsl.N(1)).Xor(i) // bad: grows
			}
			out.Store(th, i, x)
		})
	})
	line = markerLineIn(t, "limits_test.go", "grows")
	_, err := k.Build()
	if err == nil {
		t.Fatal("Build accepted an expression a million operations deep")
	}
	msg := err.Error()
	for _, want := range []string{fmt.Sprintf("limits_test.go:%d", line), "grew past", "arrays.Compute"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not say %q: %.500s", want, msg)
		}
	}
	if n := strings.Count(msg, "grew past"); n > 2 {
		t.Errorf("the error is repeated %d times", n)
	}
}
