package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/obsidian-go/obsidian/dsl"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/scan"
	"github.com/obsidian-go/obsidian/sorts"
)

// warmups is the number of untimed runs before the timed ones, as in the
// baseline.
const warmups = 3

// minRuns is the fewest timed runs a measurement may take, as in the
// baseline.
const minRuns = 15

// method is one of the library's sorts or scans as the benchmark runs it.
type method struct {
	name string
	// sort sorts (or scans) keys, all in [0, hi), into out and returns how
	// many elements at the front of out hold the result.
	sort func(b *bench, out, keys *runtime.Buffer[uint32], hi uint32) (int, error)
	// want returns the expected result, given the keys and the keys
	// sorted.
	want func(keys, sorted []uint32) []uint32
}

// sortedKeys and distinctKeys are the wants of the sorts.
func sortedKeys(_, sorted []uint32) []uint32   { return sorted }
func distinctKeys(_, sorted []uint32) []uint32 { return distinctOf(sorted) }

// ourMethods are the library's sorts the benchmark times.
var ourMethods = []method{
	{
		name: obsCounting,
		sort: func(b *bench, out, keys *runtime.Buffer[uint32], hi uint32) (int, error) {
			return keys.Len(), b.sorter.CountingSort(out, keys, 0, hi)
		},
		want: sortedKeys,
	},
	{
		name: obsOccurrence,
		sort: func(b *bench, out, keys *runtime.Buffer[uint32], hi uint32) (int, error) {
			return b.sorter.OccurrenceSort(out, keys, 0, hi)
		},
		want: distinctKeys,
	},
	{
		name: obsCountingPaper,
		sort: func(b *bench, out, keys *runtime.Buffer[uint32], hi uint32) (int, error) {
			return keys.Len(), b.sorter.PaperCountingSort(out, keys, 0, hi)
		},
		want: sortedKeys,
	},
	{
		name: obsOccurrencePaper,
		sort: func(b *bench, out, keys *runtime.Buffer[uint32], hi uint32) (int, error) {
			return b.sorter.PaperOccurrenceSort(out, keys, 0, hi)
		},
		want: distinctKeys,
	},
	{
		name: obsScan,
		sort: func(b *bench, out, keys *runtime.Buffer[uint32], _ uint32) (int, error) {
			return keys.Len(), b.scanner.Run(keys, out)
		},
		want: exclusiveSum,
	},
}

// exclusiveSum is the want of the scan: the exclusive prefix sums of the
// keys, modulo 2^32.
func exclusiveSum(keys, _ []uint32) []uint32 {
	out := make([]uint32, len(keys))
	acc := uint32(0)
	for i, k := range keys {
		out[i] = acc
		acc += k
	}
	return out
}

// bench times methods on one device, checking each one's result once.
type bench struct {
	dev         runtime.Device
	sorter      *sorts.Sorter
	scanner     *scan.Scan[uint32]
	start, stop runtime.Event
	dists       []distribution
	methods     []method
	runs        int
	seed        uint64
	progress    io.Writer
	began       time.Time
}

// newBench loads the sorts on dev and makes the timing events.
func newBench(dev runtime.Device, runs int, seed uint64, progress io.Writer) (*bench, error) {
	s, err := sorts.New(dev)
	if err != nil {
		return nil, err
	}
	b := &bench{dev: dev, sorter: s, dists: distributions(), methods: ourMethods, runs: runs, seed: seed, progress: progress, began: time.Now()}
	if b.scanner, err = scan.New(dev, dsl.U32.Add, 0, scan.Exclusive); err == nil {
		b.start, err = dev.NewEvent()
	}
	if err == nil {
		b.stop, err = dev.NewEvent()
	}
	if err != nil {
		_ = b.close()
		return nil, err
	}
	return b, nil
}

// close frees the sorter's and the scan's buffers and the events.
func (b *bench) close() error {
	err := b.sorter.Close()
	if b.scanner != nil {
		err = errors.Join(err, b.scanner.Close())
	}
	for _, e := range []runtime.Event{b.start, b.stop} {
		if e != nil {
			err = errors.Join(err, e.Close())
		}
	}
	return err
}

// measure times every method on every distribution for each n.
func (b *bench) measure(sizes []int) ([]row, error) {
	var rows []row
	for _, n := range sizes {
		r, err := b.measureSize(n)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

// measureSize times every method on every distribution of n keys, with
// the input and output buffers allocated once.
func (b *bench) measureSize(n int) (rows []row, err error) {
	keys, err := runtime.Alloc[uint32](b.dev, n)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, keys.Free()) }()
	out, err := runtime.Alloc[uint32](b.dev, n)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, out.Free()) }()
	for _, d := range b.dists {
		r, err := b.measureDist(d, keys, out)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

// measureDist copies the distribution's keys to the device once and times
// every method on them.
func (b *bench) measureDist(d distribution, keys, out *runtime.Buffer[uint32]) ([]row, error) {
	n := keys.Len()
	host := d.keys(n, b.seed)
	sorted := sortedCopy(host)
	if err := keys.CopyFrom(host); err != nil {
		return nil, err
	}
	var rows []row
	line := fmt.Sprintf("[%7.1fs] n=%d dist=%s:", time.Since(b.began).Seconds(), n, d.name)
	for _, m := range b.methods {
		r, err := b.timeMethod(m, d, keys, out, m.want(host, sorted))
		if err != nil {
			return nil, err
		}
		rows = append(rows, r)
		line += fmt.Sprintf(" %s %.3f ms", m.name, r.medianMS)
	}
	fmt.Fprintln(b.progress, line)
	return rows, nil
}

// timeMethod runs m warmups + runs times, each between a pair of events on the
// default stream, and checks the result of the first run (into an output
// poisoned with 0xFFFFFFFF) against want.
func (b *bench) timeMethod(m method, d distribution, keys, out *runtime.Buffer[uint32], want []uint32) (row, error) {
	n := keys.Len()
	fail := func(err error) (row, error) {
		return row{}, fmt.Errorf("n=%d dist=%s method=%s: %w", n, d.name, m.name, err)
	}
	if err := out.Fill(0xFFFFFFFF); err != nil {
		return fail(err)
	}
	var ms []float64
	for i := range warmups + b.runs {
		elapsed, count, err := b.timeOnce(m, keys, out, d.bound(n))
		if err != nil {
			return fail(err)
		}
		if i == 0 {
			if err := check(out, count, want); err != nil {
				return fail(err)
			}
		}
		if i >= warmups {
			ms = append(ms, elapsed.Seconds()*1e3)
		}
	}
	slices.Sort(ms)
	return row{n: n, dist: d.name, method: m.name, medianMS: median(ms), minMS: ms[0], maxMS: ms[len(ms)-1], runs: b.runs}, nil
}

// timeOnce runs m once between the two events and returns the time between
// them and how many results m wrote.
func (b *bench) timeOnce(m method, keys, out *runtime.Buffer[uint32], hi uint32) (time.Duration, int, error) {
	if err := b.start.Record(nil); err != nil {
		return 0, 0, err
	}
	count, err := m.sort(b, out, keys, hi)
	if err != nil {
		return 0, 0, err
	}
	if err := b.stop.Record(nil); err != nil {
		return 0, 0, err
	}
	if err := b.stop.Synchronize(); err != nil {
		return 0, 0, err
	}
	elapsed, err := b.stop.Since(b.start)
	return elapsed, count, err
}

// check compares the first count elements of out with want, element by
// element.
func check(out *runtime.Buffer[uint32], count int, want []uint32) error {
	if count != len(want) {
		return fmt.Errorf("%d results, want %d", count, len(want))
	}
	got, err := out.View(0, count).ToSlice()
	if err != nil {
		return err
	}
	for i := range want {
		if got[i] != want[i] {
			return fmt.Errorf("element %d is %d, want %d", i, got[i], want[i])
		}
	}
	return nil
}

// median returns the median of the sorted, non-empty ms: the middle one,
// or the mean of the two middle ones.
func median(ms []float64) float64 {
	mid := len(ms) / 2
	if len(ms)%2 == 1 {
		return ms[mid]
	}
	return (ms[mid-1] + ms[mid]) / 2
}
