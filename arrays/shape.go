package arrays

import (
	"fmt"
	"math"

	"github.com/obsidian-go/obsidian/dsl"
)

// Matrix is a two-dimensional Pull array: a number of rows, a number of
// columns and an index function of a row and a column. AsMatrix views a
// one-dimensional array as a row-major matrix; Flatten is the way back.
type Matrix[T dsl.Scalar] struct {
	rows, cols dsl.U32
	ix         func(r, c dsl.U32) dsl.Exp[T]
}

// AsMatrix returns the row-major matrix of rows × cols elements that a
// holds: element (r, c) is a[r*cols + c]. a must hold rows*cols elements:
// when the three lengths are constants, any other length, or a product
// that overflows 32 bits, is an error at the caller's line.
func AsMatrix[T dsl.Scalar](rows, cols dsl.U32, a Pull[T]) Matrix[T] {
	r, rConst := constLen(rows)
	c, cConst := constLen(cols)
	n, nConst := constLen(a.n)
	if rConst && cConst && nConst && uint64(r)*uint64(c) != uint64(n) {
		return invalidMatrix[T](fmt.Sprintf("AsMatrix of %d × %d elements from an array of %d", r, c, n))
	}
	return Matrix[T]{rows: rows, cols: cols, ix: func(r, c dsl.U32) dsl.Exp[T] { return a.At(r.Mul(cols).Add(c)) }}
}

// GenerateMatrix returns the rows × cols matrix whose element (r, c) is
// f(r, c).
func GenerateMatrix[T dsl.Scalar](rows, cols dsl.U32, f func(r, c dsl.U32) dsl.Exp[T]) Matrix[T] {
	if f == nil {
		return invalidMatrix[T]("GenerateMatrix with a nil index function")
	}
	return Matrix[T]{rows: rows, cols: cols, ix: f}
}

// invalidMatrix returns a matrix whose shape and elements are an error at
// the user's line saying msg.
func invalidMatrix[T dsl.Scalar](msg string) Matrix[T] {
	n, x := dsl.Invalid[uint32](msg), dsl.Invalid[T](msg)
	return Matrix[T]{rows: n, cols: n, ix: func(dsl.U32, dsl.U32) dsl.Exp[T] { return x }}
}

// Shape returns the numbers of rows and of columns.
func (m Matrix[T]) Shape() (rows, cols dsl.U32) { return m.rows, m.cols }

// At returns element (r, c): row r, column c.
func (m Matrix[T]) At(r, c dsl.U32) dsl.Exp[T] {
	if m.ix == nil {
		return dsl.Invalid[T]("read of a zero Matrix (one no combinator built)")
	}
	return m.ix(r, c)
}

// Row returns row r, an array of cols elements.
func (m Matrix[T]) Row(r dsl.U32) Pull[T] {
	return Generate(m.cols, func(c dsl.U32) dsl.Exp[T] { return m.At(r, c) })
}

// Col returns column c, an array of rows elements.
func (m Matrix[T]) Col(c dsl.U32) Pull[T] {
	return Generate(m.rows, func(r dsl.U32) dsl.Exp[T] { return m.At(r, c) })
}

// Rows returns the rows of m, top to bottom: Concat of them is Flatten.
func (m Matrix[T]) Rows() Pulls[T] {
	return Pulls[T]{n: m.rows, m: m.cols, at: m.Row}
}

// Cols returns the columns of m, left to right: Concat of them is Flatten
// of the transpose.
func (m Matrix[T]) Cols() Pulls[T] {
	return Pulls[T]{n: m.cols, m: m.rows, at: m.Col}
}

// Flatten returns the elements of m in row-major order, rows*cols of
// them.
func (m Matrix[T]) Flatten() Pull[T] {
	return Generate(m.rows.Mul(m.cols), func(i dsl.U32) dsl.Exp[T] { return m.At(i.Div(m.cols), i.Rem(m.cols)) })
}

// Transpose returns the cols × rows matrix whose element (c, r) is element
// (r, c) of m. Like every Pull combinator it moves no data, and written
// out it reads the matrix along its columns; MapTiles' example transposes
// tile by tile through shared memory, so that both the reads and the
// writes are in memory order.
func Transpose[T dsl.Scalar](m Matrix[T]) Matrix[T] {
	return Matrix[T]{rows: m.cols, cols: m.rows, ix: func(r, c dsl.U32) dsl.Exp[T] { return m.At(c, r) }}
}

// Tiles is a matrix cut into tiles of th × tw elements, numbered row by row
// of tiles: tiles down and across, those of the last row and column of
// tiles partial when th or tw does not divide the matrix's shape.
type Tiles[T dsl.Scalar] struct {
	m            Matrix[T]
	th, tw       uint32
	down, across dsl.U32
}

// TilesOf cuts m into tiles of th rows and tw columns. A zero tile size,
// or tiles of more than 2^31 - 1 elements, is an error at the caller's
// line.
func TilesOf[T dsl.Scalar](m Matrix[T], th, tw uint32) Tiles[T] {
	var wrong string
	switch {
	case th == 0 || tw == 0:
		wrong = "a tile size is zero"
	case uint64(th)*uint64(tw) > math.MaxInt32:
		wrong = "more than 2^31 - 1 elements in a tile"
	}
	if wrong != "" {
		bad := dsl.Invalid[uint32](fmt.Sprintf("TilesOf with tiles of %d × %d elements: %s", th, tw, wrong))
		return Tiles[T]{m: invalidMatrix[T]("a tile of an invalid TilesOf"), th: 1, tw: 1, down: bad, across: bad}
	}
	return Tiles[T]{m: m, th: th, tw: tw,
		down: dsl.CeilDiv(m.rows, dsl.N(th)), across: dsl.CeilDiv(m.cols, dsl.N(tw))}
}

// Len returns the number of tiles.
func (t Tiles[T]) Len() dsl.U32 { return t.down.Mul(t.across) }

// Shape returns the numbers of rows and of columns of tiles.
func (t Tiles[T]) Shape() (down, across dsl.U32) { return t.down, t.across }

// Coords returns the row and the column of tile k among the tiles.
func (t Tiles[T]) Coords(k dsl.U32) (tr, tc dsl.U32) { return k.Div(t.across), k.Rem(t.across) }

// At returns tile k, the one at Coords(k).
func (t Tiles[T]) At(k dsl.U32) Tile[T] {
	tr, tc := t.Coords(k)
	return t.Tile(tr, tc)
}

// Tile returns the tile in row tr and column tc of tiles: the part of the
// matrix from (tr*th, tc*tw), th × tw elements or fewer at the edges.
func (t Tiles[T]) Tile(tr, tc dsl.U32) Tile[T] {
	top, left := tr.Mul(dsl.N(t.th)), tc.Mul(dsl.N(t.tw))
	rows, cols := dsl.N(t.th).Min(t.m.rows.Sub(top)), dsl.N(t.tw).Min(t.m.cols.Sub(left))
	return Tile[T]{
		Matrix: Matrix[T]{rows: rows, cols: cols, ix: func(r, c dsl.U32) dsl.Exp[T] { return t.m.At(top.Add(r), left.Add(c)) }},
		top:    top, left: left, th: t.th, tw: t.tw,
	}
}

// Tile is a part of a matrix: a Matrix of its own, whose element (r, c) is
// element (top+r, left+c) of the whole, with room for th × tw elements
// (the size of its tiling; fewer are in it at the edges).
type Tile[T dsl.Scalar] struct {
	Matrix[T]
	top, left dsl.U32
	th, tw    uint32
}

// Origin returns where the tile's element (0, 0) is in the whole matrix.
func (t Tile[T]) Origin() (top, left dsl.U32) { return t.top, t.left }

// Transposed returns the transpose of the tile, as the tile of the
// transposed matrix: its origin and its shape swapped.
func (t Tile[T]) Transposed() Tile[T] {
	return Tile[T]{Matrix: Transpose(t.Matrix), top: t.left, left: t.top, th: t.tw, tw: t.th}
}

// ComputeTile writes a tile into shared memory, one thread per element of
// a whole tile of th × tw elements (those outside a partial tile idle),
// ends with a barrier, and returns the tile reading it: the Compute of a
// tile. Neighbouring threads read neighbouring elements of a row, so a
// row-major matrix in global memory is read in memory order; the rows are
// laid out in shared memory an odd number of elements apart, so that the
// elements of a column are in different banks and the threads reading a
// column of it (as those writing its transpose do) do not wait for each
// other.
func ComputeTile[T dsl.Scalar](b *dsl.Block, t Tile[T]) Tile[T] {
	return computeTile(b, t)
}

// computeTile is ComputeTile: the one place that puts a tile into shared
// memory and the barrier after it.
func computeTile[T dsl.Scalar](b *dsl.Block, t Tile[T]) Tile[T] {
	tw, stride := dsl.N(t.tw), dsl.N(t.tw|1)
	sh := dsl.Shared[T](b, int(t.th)*int(t.tw|1))
	b.ForAll(dsl.N(t.th*t.tw), func(th *dsl.Thread, i dsl.U32) {
		r, c := i.Div(tw), i.Rem(tw)
		th.If(r.Lt(t.rows).And(c.Lt(t.cols)), func(th *dsl.Thread) { sh.Store(th, r.Mul(stride).Add(c), t.At(r, c)) })
	})
	b.Sync()
	t.Matrix = Matrix[T]{rows: t.rows, cols: t.cols, ix: func(r, c dsl.U32) dsl.Exp[T] { return sh.At(r.Mul(stride).Add(c)) }}
	return t
}

// MapTiles runs f on every tile of t in a block of its own (as MapBlocks
// does with the parts of an array) and writes the tile f returns at its
// place in a row-major matrix of rows × cols elements: the Grid-level Push
// array of rows*cols elements. The block writes one thread per element of
// a whole tile, along the tile's rows, so that neighbouring threads write
// neighbouring addresses; elements of the tile outside the matrix are not
// written.
func MapTiles[T, U dsl.Scalar](t Tiles[T], rows, cols dsl.U32, f func(b *dsl.Block, tile Tile[T]) Tile[U]) Push[*dsl.Grid, U] {
	if f == nil {
		bad := dsl.Invalid[uint32]("MapTiles with a nil function")
		return Push[*dsl.Grid, U]{n: bad, run: func(g *dsl.Grid, _ Writer[U]) { dsl.Let(g, bad) }}
	}
	return Push[*dsl.Grid, U]{n: rows.Mul(cols), run: func(g *dsl.Grid, w Writer[U]) {
		g.ForAllBlocks(t.Len(), func(b *dsl.Block, k dsl.U32) {
			out := f(b, t.At(k))
			tw := dsl.N(out.tw)
			b.ForAll(dsl.N(out.th*out.tw), func(th *dsl.Thread, i dsl.U32) {
				r, c := i.Div(tw), i.Rem(tw)
				row, col := out.top.Add(r), out.left.Add(c)
				inside := r.Lt(out.rows).And(c.Lt(out.cols)).And(row.Lt(rows)).And(col.Lt(cols))
				th.If(inside, func(th *dsl.Thread) { w(th, row.Mul(cols).Add(col), out.At(r, c)) })
			})
		})
	}}
}
