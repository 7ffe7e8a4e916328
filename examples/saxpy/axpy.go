package saxpy

import (
	"fmt"

	"github.com/obsidian-go/obsidian/runtime"
)

// Axpy returns a*x + y, computed on dev by the generated launcher Saxpy.
func Axpy(dev runtime.Device, a float32, x, y []float32) ([]float32, error) {
	if len(x) != len(y) {
		return nil, fmt.Errorf("saxpy: x has %d elements and y %d", len(x), len(y))
	}
	xb, err := runtime.FromSlice(dev, x)
	if err != nil {
		return nil, err
	}
	defer xb.Free()
	yb, err := runtime.FromSlice(dev, y)
	if err != nil {
		return nil, err
	}
	defer yb.Free()
	if err := Saxpy(dev, runtime.LaunchConfig{}, a, xb, yb); err != nil {
		return nil, err
	}
	return yb.ToSlice()
}
