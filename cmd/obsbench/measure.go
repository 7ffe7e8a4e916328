package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"time"

	"github.com/obsidian-go/obsidian/runtime"
)

// warmups is the number of untimed runs before the timed ones, as in the
// baseline.
const warmups = 3

// minRuns is the fewest timed runs a measurement may take, as in the
// baseline.
const minRuns = 15

// bench times methods on one device, checking each one's result once.
type bench struct {
	dev         runtime.Device
	start, stop runtime.Event
	dists       []distribution
	methods     []method
	runs        int
	seed        uint64
	progress    io.Writer
	began       time.Time
	// tools are what use opened, by type; opened lists them in the order
	// they were opened, for close.
	tools  map[reflect.Type]any
	opened []io.Closer
}

// newBench makes the timing events on dev for every distribution and
// every method of ourMethods.
func newBench(dev runtime.Device, runs int, seed uint64, progress io.Writer) (*bench, error) {
	b := &bench{dev: dev, dists: distributions(), methods: ourMethods, runs: runs, seed: seed, progress: progress,
		began: time.Now(), tools: map[reflect.Type]any{}}
	var err error
	if b.start, err = dev.NewEvent(); err == nil {
		b.stop, err = dev.NewEvent()
	}
	if err != nil {
		return nil, errors.Join(err, b.close())
	}
	return b, nil
}

// close frees what the methods opened and the events.
func (b *bench) close() error {
	var err error
	for _, t := range slices.Backward(b.opened) {
		err = errors.Join(err, t.Close())
	}
	for _, e := range []runtime.Event{b.start, b.stop} {
		if e != nil {
			err = errors.Join(err, e.Close())
		}
	}
	return err
}

// measure times every method on every distribution it accepts for each n.
func (b *bench) measure(sizes []int) ([]row, error) {
	var rows []row
	for _, n := range sizes {
		for _, d := range b.dists {
			r, err := d.measure(b, n)
			if err != nil {
				return nil, err
			}
			rows = append(rows, r...)
		}
	}
	return rows, nil
}

// measure implements distribution: it copies n keys to the device once
// and times every method of b that sorts K and accepts the keys' span.
func (d *dist[K]) measure(b *bench, n int) (rows []row, err error) {
	s, hasSpan := d.spanOf(n, b.seed)
	methods := d.methodsFor(b.methods, s, hasSpan)
	if len(methods) == 0 {
		return nil, nil
	}
	host := d.keys(n, b.seed)
	ref := newReference(host)
	c := &call[K]{span: s}
	defer func() { err = errors.Join(err, c.free()) }()
	if err := c.alloc(b.dev, host, slices.ContainsFunc(methods, func(m *sortMethod[K]) bool { return m.values })); err != nil {
		return nil, fmt.Errorf("n=%d dist=%s: %w", n, d.name, err)
	}
	line := fmt.Sprintf("[%7.1fs] n=%d dist=%s:", time.Since(b.began).Seconds(), n, d.name)
	for _, m := range methods {
		r, err := timeMethod(b, d, m, c, ref)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r)
		line += fmt.Sprintf(" %s %.3f ms", m.name, r.medianMS)
	}
	fmt.Fprintln(b.progress, line)
	return rows, nil
}

// methodsFor returns the methods that sort K and take keys of span s (ok
// false: none declared), and, for those that need them, distinct keys.
func (d *dist[K]) methodsFor(methods []method, s span, ok bool) []*sortMethod[K] {
	var ms []*sortMethod[K]
	for _, m := range methods {
		if m, isK := m.(*sortMethod[K]); isK && m.takes(s, ok) && (!m.distinct || d.distinct) {
			ms = append(ms, m)
		}
	}
	return ms
}

// alloc copies keys to dev and allocates the output, and with values the
// values 0, 1, ..., n-1 and their output.
func (c *call[K]) alloc(dev runtime.Device, keys []K, values bool) error {
	var err error
	if c.keys, err = runtime.FromSlice(dev, keys); err != nil {
		return err
	}
	if c.out, err = runtime.Alloc[K](dev, len(keys)); err != nil || !values {
		return err
	}
	if c.values, err = runtime.FromSlice(dev, fill(len(keys), func(i int) uint32 { return uint32(i) })); err != nil {
		return err
	}
	c.valuesOut, err = runtime.Alloc[uint32](dev, len(keys))
	return err
}

// free frees the buffers alloc made.
func (c *call[K]) free() error {
	var err error
	for _, free := range []func() error{freer(c.keys), freer(c.out), freer(c.values), freer(c.valuesOut)} {
		err = errors.Join(err, free())
	}
	return err
}

// freer returns buf's Free, or nothing to do for a nil buf.
func freer[T runtime.Scalar](buf *runtime.Buffer[T]) func() error {
	if buf == nil {
		return func() error { return nil }
	}
	return buf.Free
}

// timeMethod runs m warmups + runs times, each between a pair of events on
// the default stream, and checks the result of the first run (into
// outputs poisoned with the key type's poison and 0xFFFFFFFF) against the
// reference.
func timeMethod[K key](b *bench, d *dist[K], m *sortMethod[K], c *call[K], ref *reference[K]) (row, error) {
	n := c.keys.Len()
	fail := func(err error) (row, error) {
		return row{}, fmt.Errorf("n=%d dist=%s method=%s: %w", n, d.name, m.name, err)
	}
	if err := c.out.Fill(d.typ.poison); err != nil {
		return fail(err)
	}
	if c.valuesOut != nil {
		if err := c.valuesOut.Fill(math.MaxUint32); err != nil {
			return fail(err)
		}
	}
	var ms []float64
	for i := range warmups + b.runs {
		elapsed, count, err := b.timeOnce(func() (int, error) { return m.run(b, c) })
		if err != nil {
			return fail(err)
		}
		if i == 0 {
			if err := m.check(c, count, ref); err != nil {
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

// timeOnce runs once between the two events and returns the time between
// them and the count run returned.
func (b *bench) timeOnce(run func() (int, error)) (time.Duration, int, error) {
	if err := b.start.Record(nil); err != nil {
		return 0, 0, err
	}
	count, err := run()
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

// median returns the median of the sorted, non-empty ms: the middle one,
// or the mean of the two middle ones.
func median(ms []float64) float64 {
	mid := len(ms) / 2
	if len(ms)%2 == 1 {
		return ms[mid]
	}
	return (ms[mid-1] + ms[mid]) / 2
}
