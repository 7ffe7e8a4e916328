package networks_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/obsidian-go/obsidian/networks"
	"github.com/obsidian-go/obsidian/runtime"
)

// TestBadInputCatalogue lists the bad inputs of the package's host side
// and the error each must give, each run under a deadline with panics
// reported as failures.
func TestBadInputCatalogue(t *testing.T) {
	dev, other := runtime.CPU(), runtime.CPU()
	buf := func(d runtime.Device, n int) *runtime.Buffer[uint32] {
		b, err := runtime.Alloc[uint32](d, n)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	sorter := func(alg networks.Algorithm, batch int) *networks.Sorter {
		s, err := networks.New(dev, alg, batch)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	cases := []struct {
		name   string
		run    func() error
		is     error
		substr string
	}{
		{"batch 0", func() error { _, err := networks.New(dev, networks.Bitonic, 0); return err }, nil, "batch 0 outside [1, 2048]"},
		{"batch too long", func() error { _, err := networks.New(dev, networks.Bubble, 4097); return err }, nil, "batch 4097 outside [1, 2048]"},
		{"unknown algorithm", func() error { _, err := networks.New(dev, 0, 8); return err }, nil, "unknown algorithm Algorithm(0)"},
		{"nil device", func() error { _, err := networks.New(nil, networks.Bubble, 8); return err }, nil, "nil device"},
		{"lengths differ", func() error {
			return networks.Sort(dev, buf(dev, 10), buf(dev, 11), 4, networks.OddEvenTransposition)
		}, networks.ErrLengthMismatch, "out has 10 elements and in 11"},
		{"nil buffer", func() error { return networks.Sort(dev, nil, buf(dev, 11), 4, networks.VSort) }, nil, "nil buffer"},
		{"buffer on another device", func() error {
			return networks.Sort(dev, buf(other, 8), buf(other, 8), 4, networks.Bitonic)
		}, nil, "buffers on another device"},
		{"other batch for a fixed sorter", func() error {
			return sorter(networks.Bubble, 8).SortBatches(buf(dev, 8), buf(dev, 8), 4)
		}, nil, "batch 4 for a bubble sorter of batch 8"},
		{"batch above the capacity", func() error {
			return sorter(networks.OddEvenTranspositionParam, 8).SortBatches(buf(dev, 8), buf(dev, 8), 9)
		}, nil, "batch 9 outside [1, 8]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				defer func() {
					if r := recover(); r != nil {
						done <- fmt.Errorf("panic: %v", r)
					}
				}()
				done <- c.run()
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), c.substr) || strings.HasPrefix(err.Error(), "panic") {
					t.Fatalf("error %v, want one containing %q", err, c.substr)
				}
				if c.is != nil && !errors.Is(err, c.is) {
					t.Fatalf("error %v is not %v", err, c.is)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("no answer in 10 s")
			}
		})
	}
}
