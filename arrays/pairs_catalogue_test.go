package arrays_test

import (
	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/dsl"
)

// pairsShapesSeqBadInputs are the wrong uses of arrays of pairs, matrices
// and tiles, and the sequential scans, for TestBadInputCatalogue: each
// must be an *ir.Error at the line of this file marked "// bad: <name>".
func pairsShapesSeqBadInputs() []badInput {
	type pair = arrays.Pair[uint32, uint32]
	var nilOp arrays.Op[uint32]
	var nilPairFn func(pair) pair
	var nilSorter func(x, y pair) (pair, pair)
	var nilStep func(acc, x dsl.U32) (dsl.U32, dsl.U32)
	var nilTileFn func(*dsl.Block, arrays.Tile[uint32]) arrays.Tile[uint32]
	// writePairs writes p into out, keys then values.
	writePairs := func(b *dsl.Block, out dsl.Array[uint32], p arrays.Pairs[uint32, uint32]) {
		fst, snd := arrays.Unzip(p)
		arrays.WriteTo(b, out, arrays.ToPush[*dsl.Block](arrays.Append(fst, snd)))
	}
	// inThread runs body in one thread of the block.
	inThread := func(body func(t *dsl.Thread, in, out dsl.Array[uint32])) error {
		return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
			b.ForAll(dsl.N(1), func(t *dsl.Thread, _ dsl.U32) { body(t, in, out) })
		})
	}
	// transposed writes the tiled transpose of in, as a 4 × 4 matrix,
	// into out.
	transposed := func(g *dsl.Grid, tiles arrays.Tiles[uint32], out dsl.Array[uint32], f func(*dsl.Block, arrays.Tile[uint32]) arrays.Tile[uint32]) {
		arrays.WriteTo(g, out, arrays.MapTiles(tiles, dsl.N(4), dsl.N(4), f))
	}
	inGrid := func(body func(g *dsl.Grid, in, out dsl.Array[uint32])) error {
		k := dsl.NewKernel("bad", 64)
		in, out := dsl.Input[uint32](k, "input"), dsl.Output[uint32](k, "output")
		k.Body(func(g *dsl.Grid) { body(g, in, out) })
		_, err := k.Build()
		return err
	}
	flip := func(_ *dsl.Block, t arrays.Tile[uint32]) arrays.Tile[uint32] { return t.Transposed() }
	return []badInput{
		{"Zip of arrays of different constant lengths", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				a := arrays.FromArray(in)
				p := arrays.Zip(arrays.Take(dsl.N(3), a), arrays.Take(dsl.N(5), a)) // bad: Zip of arrays of different constant lengths
				writePairs(b, out, arrays.ComputePairs(b, p))
			})
		}, "Zip of arrays of different lengths, 3 and 5"},
		{"ComputePairs of an array of unknown length", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				a := arrays.FromArray(in)
				arrays.ComputePairs(b, arrays.Zip(a, a)) // bad: ComputePairs of an array of unknown length
			})
		}, "ComputePairs or ForcePairs of an array whose length is not a constant"},
		{"MapPairs with a nil function", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				a := arrays.FromArray(in)
				writePairs(b, out, arrays.MapPairs(arrays.Zip(a, a), nilPairFn)) // bad: MapPairs with a nil function
			})
		}, "MapPairs with a nil function"},
		{"EvensPairs with a nil function", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				a := arrays.FromArray(in)
				writePairs(b, out, arrays.EvensPairs(nilSorter, arrays.Zip(a, a))) // bad: EvensPairs with a nil function
			})
		}, "EvensPairs with a nil function"},
		{"OddsPairs with a nil function", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				a := arrays.FromArray(in)
				writePairs(b, out, arrays.OddsPairs(nilSorter, arrays.Zip(a, a))) // bad: OddsPairs with a nil function
			})
		}, "OddsPairs with a nil function"},
		{"IxMapPairs with a nil index function", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				a := arrays.FromArray(in)
				writePairs(b, out, arrays.IxMapPairs(nil, arrays.Zip(a, a))) // bad: IxMapPairs with a nil index function
			})
		}, "IxMapPairs with a nil index function"},
		{"GeneratePairs with a nil index function", func() error {
			return inBlock(func(b *dsl.Block, in, out dsl.Array[uint32]) {
				writePairs(b, out, arrays.GeneratePairs[uint32, uint32](in.Len(), nil)) // bad: GeneratePairs with a nil index function
			})
		}, "GeneratePairs with a nil index function"},
		{"SeqScan with a nil operator", func() error {
			return inThread(func(t *dsl.Thread, in, out dsl.Array[uint32]) {
				arrays.WriteTo(t, out, arrays.SeqScan(nilOp, arrays.FromArray(in))) // bad: SeqScan with a nil operator
			})
		}, "SeqScan of a nil operator (Op)"},
		{"SeqScanExclusive with a nil operator", func() error {
			return inThread(func(t *dsl.Thread, in, out dsl.Array[uint32]) {
				arrays.WriteTo(t, out, arrays.SeqScanExclusive(nilOp, dsl.N(0), arrays.FromArray(in))) // bad: SeqScanExclusive with a nil operator
			})
		}, "SeqScanExclusive of a nil operator (Op)"},
		{"MapAccum with a nil function", func() error {
			return inThread(func(t *dsl.Thread, in, out dsl.Array[uint32]) {
				out.Store(t, dsl.N(0), arrays.MapAccum(t, nilStep, dsl.N(0), arrays.FromArray(in), out.Store)) // bad: MapAccum with a nil function
			})
		}, "MapAccum with a nil function"},
		{"MapAccum with a nil Writer", func() error {
			return inThread(func(t *dsl.Thread, in, out dsl.Array[uint32]) {
				step := func(acc, x dsl.U32) (dsl.U32, dsl.U32) { return acc.Add(x), acc }
				out.Store(t, dsl.N(0), arrays.MapAccum(t, step, dsl.N(0), arrays.FromArray(in), nil)) // bad: MapAccum with a nil Writer
			})
		}, "MapAccum with a nil Writer"},
		{"TilesOf with a zero tile height", func() error {
			return inGrid(func(g *dsl.Grid, in, out dsl.Array[uint32]) {
				tiles := arrays.TilesOf(arrays.AsMatrix(dsl.N(4), dsl.N(4), arrays.FromArray(in)), 0, 4) // bad: TilesOf with a zero tile height
				transposed(g, tiles, out, flip)
			})
		}, "TilesOf with tiles of 0 × 4 elements: a tile size is zero"},
		{"TilesOf with a zero tile width", func() error {
			return inGrid(func(g *dsl.Grid, in, out dsl.Array[uint32]) {
				tiles := arrays.TilesOf(arrays.AsMatrix(dsl.N(4), dsl.N(4), arrays.FromArray(in)), 2, 0) // bad: TilesOf with a zero tile width
				transposed(g, tiles, out, flip)
			})
		}, "TilesOf with tiles of 2 × 0 elements: a tile size is zero"},
		{"TilesOf with tiles of 2^32 elements", func() error {
			return inGrid(func(g *dsl.Grid, in, out dsl.Array[uint32]) {
				tiles := arrays.TilesOf(arrays.AsMatrix(dsl.N(4), dsl.N(4), arrays.FromArray(in)), 1<<16, 1<<16) // bad: TilesOf with tiles of 2^32 elements
				transposed(g, tiles, out, flip)
			})
		}, "more than 2^31 - 1 elements in a tile"},
		{"MapTiles with a nil function", func() error {
			return inGrid(func(g *dsl.Grid, in, out dsl.Array[uint32]) {
				tiles := arrays.TilesOf(arrays.AsMatrix(dsl.N(4), dsl.N(4), arrays.FromArray(in)), 2, 2)
				arrays.WriteTo(g, out, arrays.MapTiles(tiles, dsl.N(4), dsl.N(4), nilTileFn)) // bad: MapTiles with a nil function
			})
		}, "MapTiles with a nil function"},
		{"AsMatrix of an array of another length", func() error {
			return inGrid(func(g *dsl.Grid, in, out dsl.Array[uint32]) {
				m := arrays.AsMatrix(dsl.N(3), dsl.N(4), arrays.Take(dsl.N(10), arrays.FromArray(in))) // bad: AsMatrix of an array of another length
				arrays.WriteTo(g, out, arrays.ToPush[*dsl.Grid](arrays.Transpose(m).Flatten()))
			})
		}, "AsMatrix of 3 × 4 elements from an array of 10"},
		{"AsMatrix whose size overflows", func() error {
			return inGrid(func(g *dsl.Grid, in, out dsl.Array[uint32]) {
				m := arrays.AsMatrix(dsl.N(1<<16), dsl.N(1<<16), arrays.Take(dsl.N(0), arrays.FromArray(in))) // bad: AsMatrix whose size overflows
				arrays.WriteTo(g, out, arrays.ToPush[*dsl.Grid](m.Flatten()))
			})
		}, "AsMatrix of 65536 × 65536 elements from an array of 0"},
		{"GenerateMatrix with a nil index function", func() error {
			return inGrid(func(g *dsl.Grid, in, out dsl.Array[uint32]) {
				m := arrays.GenerateMatrix[uint32](dsl.N(2), dsl.N(2), nil) // bad: GenerateMatrix with a nil index function
				arrays.WriteTo(g, out, arrays.ToPush[*dsl.Grid](m.Flatten()))
			})
		}, "GenerateMatrix with a nil index function"},
	}
}
