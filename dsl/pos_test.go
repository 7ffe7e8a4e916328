package dsl_test

import (
	"errors"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/ir"
)

// TestCallerPosWhateverItsReads checks that the user's line is found
// whether callerPos reads the stack a frame at a time, a few frames or many:
// a mistake's line inside closures nested at every level, with several
// frames of the DSL between the user's closure and the statement.
func TestCallerPosWhateverItsReads(t *testing.T) {
	for _, chunk := range []int{1, 2, 3, 5, 16, dsl.MaxCallerChunk} {
		restore := dsl.SetCallerChunk(chunk)
		k := dsl.NewKernel("pos", 32)
		var mistakeLine int
		k.Body(func(g *dsl.Grid) {
			g.ForAllBlocks(dsl.N(1), func(b *dsl.Block, _ dsl.U32) {
				b.ForAll(dsl.N(32), func(th *dsl.Thread, _ dsl.U32) {
					_, _, mistakeLine, _ = runtime.Caller(0)
					dsl.Let(th, dsl.Invalid[uint32]("a mistake")) // mistakeLine + 1
				})
			})
		})
		built, err := k.Build()
		restore()
		if built != nil {
			t.Fatalf("reading %d frames at a time, a kernel with a mistake built", chunk)
		}
		var e *ir.Error
		if !errors.As(err, &e) || filepath.Base(e.Pos.File) != "pos_test.go" || e.Pos.Line != mistakeLine+1 {
			t.Errorf("reading %d frames at a time, Build gave %v, want the mistake at pos_test.go:%d", chunk, err,
				mistakeLine+1)
		}
	}
}
