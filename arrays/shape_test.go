package arrays_test

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/ir"
	"github.com/obsidian-go/obsidian/runtime"
)

// matrixKernel returns a kernel of the given threads per block whose
// parameters are rows, cols, a rows × cols row-major input and an output
// that body writes, given the input as a Matrix.
func matrixKernel(name string, threads int,
	body func(g *dsl.Grid, rows, cols dsl.U32, m arrays.Matrix[uint32], out dsl.Array[uint32])) *dsl.Kernel {
	k := dsl.NewKernel(name, threads)
	rows, cols := dsl.Param[uint32](k, "rows"), dsl.Param[uint32](k, "cols")
	in, out := dsl.Input[uint32](k, "input"), dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) { body(g, rows, cols, arrays.AsMatrix(rows, cols, arrays.FromArray(in)), out) })
	return k
}

// flattened returns a kernel that writes the array f makes of the matrix,
// one thread per element.
func flattened(name string, f func(m arrays.Matrix[uint32]) arrays.Pull[uint32]) *dsl.Kernel {
	return matrixKernel(name, 64, func(g *dsl.Grid, _, _ dsl.U32, m arrays.Matrix[uint32], out dsl.Array[uint32]) {
		arrays.WriteTo(g, out, arrays.ToPush[*dsl.Grid](f(m)))
	})
}

// tiledTransposeKernel returns the kernel that transposes its input tile
// by tile through shared memory, tiles of th × tw elements, one block per
// tile.
func tiledTransposeKernel(th, tw uint32, threads int) *dsl.Kernel {
	return matrixKernel("tiledTranspose", threads, func(g *dsl.Grid, rows, cols dsl.U32, m arrays.Matrix[uint32], out dsl.Array[uint32]) {
		arrays.WriteTo(g, out, arrays.MapTiles(arrays.TilesOf(m, th, tw), cols, rows,
			func(b *dsl.Block, tile arrays.Tile[uint32]) arrays.Tile[uint32] {
				return arrays.ComputeTile(b, tile).Transposed()
			}))
	})
}

// transposeGo returns the transpose of the rows × cols row-major matrix
// xs.
func transposeGo(rows, cols int, xs []uint32) []uint32 {
	t := make([]uint32, len(xs))
	for r := range rows {
		for c := range cols {
			t[c*rows+r] = xs[r*cols+c]
		}
	}
	return t
}

// runMatrix runs fn on a rows × cols matrix xs and returns its output of
// rows*cols elements.
func runMatrix(t *testing.T, dev runtime.Device, fn runtime.Function, rows, cols int, xs []uint32) ([]uint32, error) {
	out := alloc[uint32](t, dev, rows*cols)
	if err := dev.Launch(fn, runtime.LaunchConfig{}, uint32(rows), uint32(cols), toDevice(t, dev, xs), out); err != nil {
		return nil, err
	}
	return fromDevice(t, out), nil
}

// TestMatrixLaws checks on random shapes, from empty to 60 × 60, that
// Transpose(Transpose(m)) = m, that Rows and Cols concatenate to m and its
// transpose, that Row and Col are the rows and columns of Go's matrix, and
// that the tiled transpose equals the plain one and Go's, for tiles of
// sizes that do not divide the shape as well as those that do.
func TestMatrixLaws(t *testing.T) {
	dev := runtime.CPU()
	plain := load(t, dev, flattened("transpose", func(m arrays.Matrix[uint32]) arrays.Pull[uint32] {
		return arrays.Transpose(m).Flatten()
	}))
	twice := load(t, dev, flattened("transposeTwice", func(m arrays.Matrix[uint32]) arrays.Pull[uint32] {
		return arrays.Transpose(arrays.Transpose(m)).Flatten()
	}))
	rows := load(t, dev, flattened("concatRows", func(m arrays.Matrix[uint32]) arrays.Pull[uint32] {
		return arrays.Concat(m.Rows())
	}))
	cols := load(t, dev, flattened("concatCols", func(m arrays.Matrix[uint32]) arrays.Pull[uint32] {
		return arrays.Concat(m.Cols())
	}))
	// The last row, then the first column, then the matrix's shape.
	edges := load(t, dev, matrixKernel("edges", 32, func(g *dsl.Grid, rows, cols dsl.U32, m arrays.Matrix[uint32], out dsl.Array[uint32]) {
		last := m.Row(rows.Sub(dsl.N(1)))
		r, c := m.Shape()
		shape := arrays.Append(arrays.Singleton(r), arrays.Singleton(c))
		arrays.WriteTo(g, out, arrays.ToPush[*dsl.Grid](arrays.Append(arrays.Append(last, m.Col(dsl.N(0))), shape)))
	}))
	props := gopter.NewProperties(proptest.Parameters(t, 20))
	props.Property("matrix laws", prop.ForAll(func(r, c, th, tw, warps int, seed uint64) string {
		xs := randomInput(r*c, seed)
		where := fmt.Sprintf("%d × %d, tiles of %d × %d, %d warps: ", r, c, th, tw, warps)
		tiled := load(t, dev, tiledTransposeKernel(uint32(th), uint32(tw), warps*ir.WarpSize))
		want := transposeGo(r, c, xs)
		for _, k := range []struct {
			name string
			fn   runtime.Function
			want []uint32
		}{{"transpose", plain, want}, {"tiled transpose", tiled, want}, {"transpose twice", twice, xs},
			{"rows", rows, xs}, {"cols", cols, want}} {
			got, err := runMatrix(t, dev, k.fn, r, c, xs)
			if err != nil {
				return where + err.Error()
			}
			if d := differ(k.name, got, k.want); d != "" {
				return where + d
			}
		}
		if r == 0 || c == 0 {
			return ""
		}
		out := alloc[uint32](t, dev, c+r+2)
		if err := dev.Launch(edges, runtime.LaunchConfig{}, uint32(r), uint32(c), toDevice(t, dev, xs), out); err != nil {
			return where + err.Error()
		}
		wantEdges := append([]uint32(nil), xs[(r-1)*c:]...)
		for i := range r {
			wantEdges = append(wantEdges, xs[i*c])
		}
		if d := differ("last row, first column, shape", fromDevice(t, out), append(wantEdges, uint32(r), uint32(c))); d != "" {
			return where + d
		}
		return ""
	}, gen.IntRange(0, 60), gen.IntRange(0, 60), gen.IntRange(1, 17), gen.IntRange(1, 17), gen.IntRange(1, 4), gen.UInt64()))
	props.TestingRun(t)
}

// TestTilesCoordinates checks the tiles of a 5 × 7 matrix cut into 2 × 3
// tiles: their number, coordinates, origins and partial shapes, against
// Go.
func TestTilesCoordinates(t *testing.T) {
	const rows, cols, th, tw = 5, 7, 2, 3
	dev := runtime.CPU()
	k := dsl.NewKernel("tiles", 32)
	out := dsl.Output[uint32](k, "output")
	k.Body(func(g *dsl.Grid) {
		m := arrays.GenerateMatrix(dsl.N(rows), dsl.N(cols), func(r, c dsl.U32) dsl.U32 { return r.Mul(dsl.N(100)).Add(c) })
		tiles := arrays.TilesOf(m, th, tw)
		down, across := tiles.Shape()
		g.ForAll(tiles.Len(), func(t *dsl.Thread, k dsl.U32) {
			tile := tiles.At(k)
			tr, tc := tiles.Coords(k)
			top, left := tile.Origin()
			h, w := tile.Shape()
			last := tile.At(h.Sub(dsl.N(1)), w.Sub(dsl.N(1)))
			for i, v := range []dsl.U32{down, across, tr, tc, top, left, h, w, last} {
				out.Store(t, k.Mul(dsl.N(9)).Add(dsl.N(uint32(i))), v)
			}
		})
	})
	const down, across = 3, 3
	outb := alloc[uint32](t, dev, down*across*9)
	if err := launch(dev, k, outb); err != nil {
		t.Fatal(err)
	}
	var want []uint32
	for tr := range uint32(down) {
		for tc := range uint32(across) {
			h, w := min(th, rows-tr*th), min(tw, cols-tc*tw)
			last := (tr*th+h-1)*100 + tc*tw + w - 1
			want = append(want, down, across, tr, tc, tr*th, tc*tw, h, w, last)
		}
	}
	if d := differ("tiles", fromDevice(t, outb), want); d != "" {
		t.Error(d)
	}
}
