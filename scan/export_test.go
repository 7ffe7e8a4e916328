package scan

import (
	"errors"

	"github.com/obsidian-go/obsidian/runtime"
)

// Epoch returns the epoch of s's next Run, 0 when the Run zeroes the
// state first.
func Epoch[T Element](s *Scan[T]) uint32 { return s.epoch }

// SetEpoch sets the epoch of s's next Run, as if that many Runs had gone
// before on its state.
func SetEpoch[T Element](s *Scan[T], epoch uint32) { s.epoch = epoch }

// ErrInjected is the error of a launch that FailLaunches fails.
var ErrInjected = errors.New("injected launch failure")

// FailLaunches has every launch of s run, then report ErrInjected, as a
// launch that fails after starting would, until the returned function is
// called; launches counts the launches made meanwhile.
func FailLaunches[T Element](s *Scan[T], launches *int) (restore func()) {
	launch := s.launch
	s.launch = func(fn runtime.Function, cfg runtime.LaunchConfig, args ...any) error {
		*launches++
		if err := launch(fn, cfg, args...); err != nil {
			return err
		}
		return ErrInjected
	}
	return func() { s.launch = launch }
}

// CountLaunches has s count its launches in launches until the returned
// function is called.
func CountLaunches[T Element](s *Scan[T], launches *int) (restore func()) {
	launch := s.launch
	s.launch = func(fn runtime.Function, cfg runtime.LaunchConfig, args ...any) error {
		*launches++
		return launch(fn, cfg, args...)
	}
	return func() { s.launch = launch }
}
