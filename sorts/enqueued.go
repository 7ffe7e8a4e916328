package sorts

import (
	"errors"
	"fmt"
	"strings"

	"github.com/obsidian-go/obsidian/runtime"
)

// enqueuedChecks are the range checks of the sorts EnqueueCountingSort
// enqueued since the last Wait: their kernels set flag[0] when a key lies
// outside its sort's range, and Wait reads it back and clears it.
type enqueuedChecks struct {
	// flag is one word, zero until a bad key sets it; nil until the first
	// enqueued sort. It is not scratch: scratch may be freed and
	// reallocated between calls, and the flag must outlive them.
	flag *runtime.Buffer[uint32]
	// ranges names the ranges of the first maxNamedRanges sorts enqueued
	// since the last Wait, for Wait's error; sorts counts them all.
	ranges []string
	sorts  int
}

// maxNamedRanges is the most ranges Wait's error names.
const maxNamedRanges = 4

// EnqueueCountingSort is CountingSort without a round trip to the host:
// it checks its arguments, enqueues the sort on the device (by the
// library's own pipeline, whatever the Sorter's options) and returns. Every
// key must lie in [lo, hi), as for CountingSort, and the kernels check it,
// but the result of the check stays on the device until Wait reads it:
// Wait returns an error wrapping ErrKeyOutOfRange if a key of any sort
// enqueued since the last Wait lay outside its range, and until Wait
// returns nil the output of these sorts must not be trusted. Nothing is
// ever written outside out.
func (s *Sorter) EnqueueCountingSort(out, keys *runtime.Buffer[uint32], lo, hi uint32) error {
	_, err := s.locked(func() (int, error) {
		bins, err := checkRange(lo, hi)
		if err != nil {
			return 0, err
		}
		if err := s.checkSortBuffers(out, keys); err != nil {
			return 0, err
		}
		if keys.Len() == 0 {
			return 0, nil
		}
		if s.enqueued.flag == nil {
			flag, err := runtime.Alloc[uint32](s.dev, 1)
			if err != nil {
				return 0, fmt.Errorf("sorts: enqueued counting sort of %d keys: allocating its flag on %s: %w", keys.Len(), s.dev.Name(), err)
			}
			if err := flag.FillOn(s.stream, 0); err != nil {
				return 0, errors.Join(err, flag.Free())
			}
			s.enqueued.flag = flag
		}
		if _, err := s.enqueueCountingSort(out, keys, lo, bins, s.enqueued.flag); err != nil {
			return 0, err
		}
		if s.enqueued.sorts < maxNamedRanges {
			s.enqueued.ranges = append(s.enqueued.ranges, fmt.Sprintf("[%d, %d)", lo, hi))
		}
		s.enqueued.sorts++
		return 0, nil
	})
	return err
}

// Wait waits for every sort the Sorter has enqueued and reads back the
// range checks of the sorts EnqueueCountingSort enqueued since the last
// Wait: it returns an error wrapping ErrKeyOutOfRange, naming their
// ranges, when a key of one of them lay outside its range (the outputs of
// those sorts are then undefined), and nil otherwise. The next Wait
// reports only the sorts enqueued after this one.
func (s *Sorter) Wait() error {
	_, err := s.locked(func() (int, error) {
		switch {
		case s.enqueued.flag != nil: // its copy back waits for the sorts
		case s.stream != nil:
			return 0, s.stream.Synchronize()
		default:
			return 0, s.dev.Synchronize()
		}
		word, err := s.enqueued.flag.ToSlice()
		if err != nil {
			return 0, err
		}
		checks := s.enqueued
		s.enqueued.ranges, s.enqueued.sorts = nil, 0
		if word[0] == 0 {
			return 0, nil
		}
		if err := s.enqueued.flag.FillOn(s.stream, 0); err != nil {
			return 0, err
		}
		named := strings.Join(checks.ranges, ", ")
		if more := checks.sorts - len(checks.ranges); more > 0 {
			named += fmt.Sprintf(" and %d more", more)
		}
		return 0, fmt.Errorf("sorts: %w of one of the %d counting sorts enqueued since the last Wait (ranges %s)",
			ErrKeyOutOfRange, checks.sorts, named)
	})
	return err
}

// release frees the flag.
func (c *enqueuedChecks) release() error {
	if c.flag == nil {
		return nil
	}
	err := c.flag.Free()
	c.flag = nil
	return err
}
