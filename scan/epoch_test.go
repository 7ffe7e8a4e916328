package scan_test

import (
	"errors"
	"testing"

	"github.com/obsidian-go/obsidian/arrays"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/scan"
)

// epochShape is a shape of small tiles, so that the runs of the epoch
// tests have many tiles at little cost on the CPU.
var epochShape = arrays.DeviceScanShape{Threads: 32, PerThread: 4, FullTiles: true}

// runLengths are lengths of successive Runs of one Scan of epochShape:
// growing (the state is reallocated) and shrinking, more tiles then fewer,
// lengths at and off the tiles' edges.
var runLengths = []int{5*128 + 3, 40 * 128, 3*128 + 1, 1, 70*128 + 7, 2 * 128, 69 * 128, 33*128 + 9, 128, 70 * 128}

// scanChecked runs s on fresh data of n elements from seed and compares
// the result with the sequential scan.
func scanChecked(t *testing.T, dev runtime.Device, s *scan.Scan[uint32], o operator, kind scan.Kind, n int, seed uint64) {
	t.Helper()
	got, err := runOn(dev, s, randomWords(n, seed, o))
	if err != nil {
		t.Fatalf("run of %d: %v", n, err)
	}
	if d := firstDifference(got, sequential(o, kind, randomWords(n, seed, o))); d != "" {
		t.Fatalf("run of %d (seed %d): %s", n, seed, d)
	}
}

// runOn scans xs with s, loaded on dev, out of place.
func runOn(dev runtime.Device, s *scan.Scan[uint32], xs []uint32) ([]uint32, error) {
	in, err := runtime.FromSlice(dev, xs)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	out, err := runtime.Alloc[uint32](dev, len(xs))
	if err != nil {
		return nil, err
	}
	defer out.Free()
	if err := s.Run(in, out); err != nil {
		return nil, err
	}
	return out.ToSlice()
}

// TestRunsInARowAreTheSequentialScan runs one Scan many times in a row on
// lengths that grow and shrink, each Run one launch in the next epoch on
// the state the Runs before left, and checks each result against the
// sequential scan: a status word or tile counter left stale by a Run would
// show in the ones after.
func TestRunsInARowAreTheSequentialScan(t *testing.T) {
	dev := runtime.CPU()
	for _, kind := range []scan.Kind{scan.Inclusive, scan.Exclusive} {
		o := operators[3] // compose: not commutative
		s, err := scan.NewShaped(dev, o.op, o.identity, kind, epochShape)
		if err != nil {
			t.Fatal(err)
		}
		launches := 0
		restore := scan.CountLaunches(s, &launches)
		// The state is zeroed when it grows: the Run after it is in epoch
		// 1, and each Run on it after in the next.
		held, wantEpoch := 0, uint32(1)
		for i, n := range runLengths {
			words, err := s.StateLen(n)
			if err != nil {
				t.Fatal(err)
			}
			if words > held {
				held, wantEpoch = words, 1
			}
			scanChecked(t, dev, s, o, kind, n, uint64(100*i+int(kind)))
			if launches != i+1 {
				t.Fatalf("%v: %d launches after %d Runs, want one a Run", kind, launches, i+1)
			}
			wantEpoch++
			if got := scan.Epoch(s); got != wantEpoch {
				t.Fatalf("%v: next epoch %d after the Run of %d, want %d", kind, got, n, wantEpoch)
			}
		}
		if wantEpoch < 6 {
			t.Fatalf("%v: only %d Runs on one state: the lengths test too few", kind, wantEpoch-1)
		}
		restore()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestEpochWraps runs a Scan at the last epochs of its status words: the
// Run in arrays.MaxEpoch leaves the state to be zeroed, and the Run after
// starts again at epoch 1, and every result is the sequential scan.
func TestEpochWraps(t *testing.T) {
	o := operators[3]
	dev := runtime.CPU()
	s, err := scan.NewShaped(dev, o.op, o.identity, scan.Inclusive, epochShape)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Epoch 1 leaves inclusive words in 40 tiles; they must not be taken
	// for those of the Run after the wrap, also in epoch 1.
	scanChecked(t, dev, s, o, scan.Inclusive, 40*128, 1)
	scan.SetEpoch(s, arrays.MaxEpoch-1)
	steps := []struct {
		n         int
		wantEpoch uint32
	}{
		{10*128 + 1, arrays.MaxEpoch},
		{20 * 128, 0},
		{40 * 128, 2},
		{7, 3},
	}
	for i, st := range steps {
		scanChecked(t, dev, s, o, scan.Inclusive, st.n, uint64(i+2))
		if got := scan.Epoch(s); got != st.wantEpoch {
			t.Fatalf("step %d: next epoch %d, want %d", i, got, st.wantEpoch)
		}
	}
}

// TestFailedLaunchZeroesTheStateAgain has a launch run and then report a
// failure: the Run returns the error, and the next Run zeroes the state
// (whose tile counter and status words the failed launch may have
// changed) before its launch, and is the sequential scan.
func TestFailedLaunchZeroesTheStateAgain(t *testing.T) {
	o := operators[3]
	dev := runtime.CPU()
	s, err := scan.NewShaped(dev, o.op, o.identity, scan.Exclusive, epochShape)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	scanChecked(t, dev, s, o, scan.Exclusive, 9*128+5, 1)
	launches := 0
	restore := scan.FailLaunches(s, &launches)
	if _, err := runOn(dev, s, randomWords(12*128, 2, o)); !errors.Is(err, scan.ErrInjected) {
		t.Fatalf("Run with a failing launch: error %v, want %v", err, scan.ErrInjected)
	}
	restore()
	if launches != 1 {
		t.Fatalf("%d launches by the failing Run, want 1", launches)
	}
	for i, n := range []int{12 * 128, 9*128 + 5, 30 * 128} {
		scanChecked(t, dev, s, o, scan.Exclusive, n, uint64(3+i))
	}
}
