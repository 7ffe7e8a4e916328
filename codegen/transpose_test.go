package codegen_test

import (
	"math/rand"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/codegen"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/eval"
	"github.com/obsidian-go/obsidian/internal/gputest"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// transposeTile is the side of the square tiles transposeKernel moves
// through shared memory.
const transposeTile = 16

// transposeKernel transposes the h × w matrix in (row-major; h is
// len(in) / w) into the w × h matrix out, one tile per block: each block
// reads its tile row by row into shared memory, then writes it column by
// column, so that both reads and writes of global memory are coalesced.
// Block bid's tile is at tile row bid / tilesX and tile column bid %
// tilesX, tilesX being the width in tiles.
func transposeKernel() *dsl.Kernel {
	const side = transposeTile
	k := dsl.NewKernel("transpose", side*side)
	in := dsl.Input[float32](k, "in")
	out := dsl.Output[float32](k, "out")
	w := dsl.Param[uint32](k, "w")
	k.Body(func(g *dsl.Grid) {
		h := in.Len().Div(w)
		tilesX := w.Add(dsl.N(side - 1)).Div(dsl.N(side))
		tilesY := h.Add(dsl.N(side - 1)).Div(dsl.N(side))
		g.ForAllBlocks(tilesX.Mul(tilesY), func(b *dsl.Block, bid dsl.U32) {
			tile := dsl.Shared[float32](b, side*side)
			row0, col0 := bid.Div(tilesX).Mul(dsl.N(side)), bid.Rem(tilesX).Mul(dsl.N(side))
			b.ForAll(dsl.N(side*side), func(t *dsl.Thread, i dsl.U32) {
				r, c := row0.Add(i.Div(dsl.N(side))), col0.Add(i.Rem(dsl.N(side)))
				inside := r.Lt(h).And(c.Lt(w))
				x := dsl.Let(t, dsl.Select(inside, in.At(r.Mul(w).Add(c)), dsl.Lit[float32](0)))
				tile.Store(t, i, x.Exp)
			})
			b.Sync()
			b.ForAll(dsl.N(side*side), func(t *dsl.Thread, i dsl.U32) {
				// out[r][c] is in[c][r]: row r of out is column r of in
				r, c := col0.Add(i.Div(dsl.N(side))), row0.Add(i.Rem(dsl.N(side)))
				t.If(r.Lt(w).And(c.Lt(h)), func(t *dsl.Thread) {
					out.Store(t, r.Mul(h).Add(c), tile.At(i.Rem(dsl.N(side)).Mul(dsl.N(side)).Add(i.Div(dsl.N(side)))))
				})
			})
		})
	})
	return k
}

// divisionPattern matches a division or remainder as the printer writes
// it, of names, constants or parenthesised operands nested up to twice.
var divisionPattern = regexp.MustCompile(`(?:[\w.]+|\((?:[^()]|\([^()]*\))*\)) [/%] (?:[\w.]+|\((?:[^()]|\([^()]*\))*\))`)

// blockDivisions returns, for each block of src (the text between
// matching braces, less the blocks inside it), the divisions it has.
func blockDivisions(src string) [][]string {
	var blocks [][]string
	var open []int // indices in blocks of the blocks that enclose the text
	for _, l := range strings.Split(src, "\n") {
		if len(open) > 0 {
			text := l
			if i := strings.Index(text, "{"); i >= 0 && !strings.HasPrefix(strings.TrimSpace(text), "}") {
				text = text[:i] // a for or an if: its header belongs to the enclosing block
			}
			b := open[len(open)-1]
			blocks[b] = append(blocks[b], divisionPattern.FindAllString(text, -1)...)
		}
		for _, r := range l {
			switch r {
			case '{':
				open = append(open, len(blocks))
				blocks = append(blocks, nil)
			case '}':
				open = open[:len(open)-1]
			}
		}
	}
	return blocks
}

// TestTransposeComputesEachDivisionOncePerBlock checks that the tiled
// transpose's divisions (by the width, and by the width in tiles) are each
// computed once in each block of the printed CUDA, and that the compiled
// kernel, the one printed, transposes in the evaluator as plain Go does.
func TestTransposeComputesEachDivisionOncePerBlock(t *testing.T) {
	built, err := transposeKernel().Build()
	if err != nil {
		t.Fatal(err)
	}
	src, compiled, err := codegen.CUDA(built)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, divisions := range blockDivisions(src) {
		seen := map[string]bool{}
		for _, d := range divisions {
			if seen[d] {
				t.Errorf("%s is computed twice in one block:\n%s", d, src)
			}
			seen[d] = true
			total++
		}
	}
	// the height once, then bid / tilesX and bid % tilesX once in each of
	// the two ForAlls
	if n := strings.Count(src, "in_len / w"); n != 1 || total != 5 {
		t.Errorf("in_len / w printed %d times and %d divisions in all, want 1 and 5:\n%s", n, total, src)
	}

	r := rand.New(rand.NewSource(1))
	for _, shape := range [][2]int{{1, 1}, {16, 16}, {17, 5}, {5, 17}, {33, 40}, {100, 3}, {1 + r.Intn(70), 1 + r.Intn(70)}} {
		h, w := shape[0], shape[1]
		in := eval.NewBuffer(ir.Float32, h*w)
		want := make([]float32, h*w)
		for i := range h * w {
			x := r.Float32()
			in.Set(i, ir.FloatValue(ir.Float32, float64(x)))
			row, col := i/w, i%w
			want[col*h+row] = x
		}
		out := eval.NewBuffer(ir.Float32, h*w)
		tiles := ((w + transposeTile - 1) / transposeTile) * ((h + transposeTile - 1) / transposeTile)
		args := []eval.Arg{{Buffer: in}, {Buffer: out}, {Scalar: ir.UintValue(ir.Uint32, uint64(w))}}
		if err := eval.Launch(compiled, eval.Config{Blocks: tiles}, args); err != nil {
			t.Fatalf("%d × %d: %v", h, w, err)
		}
		for i, x := range want {
			if got := out.Get(i); got != ir.FloatValue(ir.Float32, float64(x)) {
				t.Fatalf("%d × %d: out[%d] is %v, want %v", h, w, i, got, x)
			}
		}
	}
}

// transposeOn transposes matrices of several shapes, of fresh random
// elements, on dev with the transpose kernel, and compares the results
// with plain Go's element by element.
func transposeOn(t *testing.T, dev runtime.Device) {
	built, err := transposeKernel().Build()
	if err != nil {
		t.Fatal(err)
	}
	fn, err := dev.Load(built)
	if err != nil {
		t.Fatal(err)
	}
	seed := time.Now().UnixNano()
	if s := os.Getenv(proptest.SeedVar); s != "" {
		if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatalf("%s=%q is not an integer", proptest.SeedVar, s)
		}
	}
	t.Logf("seed %d (replay with %s=%d)", seed, proptest.SeedVar, seed)
	r := rand.New(rand.NewSource(seed))
	shapes := [][2]int{{1, 1}, {16, 16}, {17, 5}, {5, 17}, {33, 40}, {1000, 3}, {3, 1000}, {517, 300}}
	for range 3 {
		shapes = append(shapes, [2]int{1 + r.Intn(300), 1 + r.Intn(300)})
	}
	for _, shape := range shapes {
		h, w := shape[0], shape[1]
		in := make([]float32, h*w)
		want := make([]float32, h*w)
		for i := range in {
			in[i] = r.Float32()
			want[i%w*h+i/w] = in[i]
		}
		inBuf, err := runtime.FromSlice(dev, in)
		if err != nil {
			t.Fatal(err)
		}
		outBuf, err := runtime.Alloc[float32](dev, h*w)
		if err != nil {
			t.Fatal(err)
		}
		if err := dev.Launch(fn, runtime.LaunchConfig{}, inBuf, outBuf, uint32(w)); err != nil {
			t.Fatalf("%d × %d: %v", h, w, err)
		}
		got, err := outBuf.ToSlice()
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%d × %d: out[%d] is %v, want %v", h, w, i, got[i], want[i])
			}
		}
		inBuf.Free()
		outBuf.Free()
	}
}

// TestTransposeOnTheCPUDevice runs the transpose through the runtime's
// CPU device, which compiles it as a GPU would load it.
func TestTransposeOnTheCPUDevice(t *testing.T) { transposeOn(t, runtime.CPU()) }

// TestGPUTranspose runs the printed transpose, with its divisions in
// locals, on GPU 0.
func TestGPUTranspose(t *testing.T) {
	g := gputest.Open(t)
	transposeOn(t, g)
}
