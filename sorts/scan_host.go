package sorts

import (
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// scanShape is how a scan cuts its input: chunks of chunk elements, each
// with its total in totals, scanned again (recursively) into sums when
// sums is set, or in place.
type scanShape struct {
	chunk int
	sums  bool
}

var (
	paperScan = scanShape{chunk: 1 << scanLog, sums: true} // sklanskyMax and distribute
	fastScan  = scanShape{chunk: kernels.ScanTile}         // reduce-then-scan
)

// shapeOf returns the scan of the paper's pipeline or the fast one.
func shapeOf(paper bool) scanShape {
	if paper {
		return paperScan
	}
	return fastScan
}

// scanNeeds returns the scratch a scan of n elements takes: at every level
// of its recursion the chunks' totals, and for the paper's scan their
// scan.
func (s *Sorter) scanNeeds(n int, paper bool) []need {
	shape := shapeOf(paper)
	var chunks []int
	for n > 0 {
		c := ceilDiv(n, shape.chunk)
		chunks = append(chunks, c)
		if c == 1 {
			break
		}
		n = c
	}
	if len(chunks) == 0 {
		return nil
	}
	// The levels are added before any is taken, so that appending does
	// not move them.
	level(&s.sc.totals, len(chunks)-1)
	if shape.sums {
		level(&s.sc.sums, len(chunks)-1)
	}
	var needs []need
	for i, c := range chunks {
		needs = append(needs, need{&s.sc.totals[i], c})
		if shape.sums && c > 1 {
			needs = append(needs, need{&s.sc.sums[i], c})
		}
	}
	return needs
}

// takeLevel returns n elements of the scratch of scan level i, which
// scanNeeds reserved.
func takeLevel(levels []*runtime.Buffer[uint32], i, n int) (*runtime.Buffer[uint32], error) {
	if i >= len(levels) {
		return take(nil, n)
	}
	return take(levels[i], n)
}

// exclusiveScan is ScanExclusive by the paper's scan or the fast one, on
// checked arguments with the scratch reserved.
func (s *Sorter) exclusiveScan(out, in *runtime.Buffer[uint32], paper bool) error {
	if err := out.View(0, 1).FillOn(s.stream, 0); err != nil {
		return err
	}
	if in.Len() == 0 {
		return nil
	}
	return s.inclusiveScan(out.View(1, in.Len()), in, paper)
}

// inclusiveScan is Scan by the paper's scan or the fast one.
func (s *Sorter) inclusiveScan(out, in *runtime.Buffer[uint32], paper bool) error {
	if paper {
		return s.chunkScan(out, in, 0)
	}
	return s.tileScan(out, in, 0)
}

// chunkScan is the global scan of the paper's figure 6: every chunk
// scanned in its own block with its total kept, the totals scanned
// (recursively), and each chunk then raised by the totals before it.
func (s *Sorter) chunkScan(out, in *runtime.Buffer[uint32], level int) error {
	n := in.Len()
	if n == 0 {
		return nil
	}
	chunks := ceilDiv(n, paperScan.chunk)
	totals, err := takeLevel(s.sc.totals, level, chunks)
	if err != nil {
		return err
	}
	if err := s.launch(s.fn.scan, in, out, totals); err != nil {
		return err
	}
	if chunks == 1 {
		return nil
	}
	sums, err := takeLevel(s.sc.sums, level, chunks)
	if err != nil {
		return err
	}
	if err := s.chunkScan(sums, totals, level+1); err != nil {
		return err
	}
	return s.launch(s.fn.distribute, sums, out)
}

// tileScan is the fast pipeline's scan: every tile's total, the totals
// scanned in place by the same scan (recursively, at most three levels for
// 2^32-1 elements), and every tile scanned from the totals before it.
func (s *Sorter) tileScan(out, in *runtime.Buffer[uint32], level int) error {
	n := in.Len()
	if n == 0 {
		return nil
	}
	tiles := ceilDiv(n, fastScan.chunk)
	totals, err := takeLevel(s.sc.totals, level, tiles)
	if err != nil {
		return err
	}
	if tiles > 1 {
		if err := s.launch(s.fn.tileTotals, in, totals); err != nil {
			return err
		}
		if err := s.tileScan(totals, totals, level+1); err != nil {
			return err
		}
	}
	return s.launch(s.fn.tileScan, in, totals, out)
}
