package kernels_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/obsidian-go/obsidian/internal/proptest"
	"github.com/obsidian-go/obsidian/runtime"
	"github.com/obsidian-go/obsidian/sorts/kernels"
)

// The bits of a plan word, in the order of the kernel's radixPlan.flags.
const (
	planRank = 1 << iota
	planCopy
	planFromIn
	planFromOut
	planToOut
)

// TestRadixHistogramPlansTheSkippedPasses runs RadixHistogramKernel on the
// CPU device over keys of 32 bits whose bytes are each constant or random,
// in several blocks, and checks the plans its last block leaves against
// what they are for: a pass ranks exactly when its byte varies; following
// the plans from the input, each pass that runs reads where the keys are
// and never writes where it reads, and the keys end in the output; a sort
// into another buffer copies nothing unless every byte is constant, and
// an in-place sort copies at most once. (The end-to-end property in sorts
// checks that sorts so planned are right; this one that the one-digit
// passes are skipped, which a sort that ranks every pass would not show.)
// It also checks that the kernel zeroes the stale counts it is given.
func TestRadixHistogramPlansTheSkippedPasses(t *testing.T) {
	shape := kernels.RadixShape{Threads: 64, PerThread: 2, Bits: 8, Window: 1}
	k, err := kernels.RadixHistogramKernel[uint32](shape, kernels.KeysOnly, kernels.Ascending).Build()
	if err != nil {
		t.Fatal(err)
	}
	dev := runtime.CPU()
	fn, err := dev.Load(k)
	if err != nil {
		t.Fatal(err)
	}
	props := gopter.NewProperties(proptest.Parameters(t, 60))
	props.Property("the plans skip the passes of one digit and leave the keys in the output", prop.ForAll(
		func(constant uint8, n, parts int, inPlace bool, seed uint64) string {
			r := rand.New(rand.NewPCG(seed, 41))
			keys := proptest.ConstantBytesKeys[uint32](r, n, constant)
			varies := make([]bool, 4)
			for q := range varies {
				for _, key := range keys {
					varies[q] = varies[q] || (key>>(8*q))&0xff != (keys[0]>>(8*q))&0xff
				}
			}
			word := uint32(0)
			if inPlace {
				word = kernels.RadixAllInPlace
			}
			plans, err := histogramPlans(dev, fn, keys, parts, word)
			where := fmt.Sprintf("%d keys in %d parts, varying bytes %v, in place %v, plans %05b", n, parts, varies,
				inPlace, plans)
			if err != nil {
				return where + ": " + err.Error()
			}
			if msg := checkPlans(plans, varies, inPlace); msg != "" {
				return where + ": " + msg
			}
			return ""
		},
		gen.OneGenOf(gen.UInt8(), gen.Const(uint8(0xf)), gen.Const(uint8(0))), gen.IntRange(1, 1000),
		gen.IntRange(1, 6), gen.Bool(), gen.UInt64()))
	props.TestingRun(t)
}

// histogramPlans runs the histogram kernel fn over keys (all 32 bits, four
// passes) in parts blocks on dev and returns the plans it leaves.
func histogramPlans(dev runtime.Device, fn runtime.Function, keys []uint32, parts int, inPlace uint32) ([]uint32, error) {
	const passes = 4
	in, err := runtime.FromSlice(dev, keys)
	if err != nil {
		return nil, err
	}
	defer in.Free()
	hist, err := runtime.FromSlice(dev, make([]uint32, passes*256))
	if err != nil {
		return nil, err
	}
	defer hist.Free()
	plans, err := runtime.FromSlice(dev, make([]uint32, passes+1))
	if err != nil {
		return nil, err
	}
	defer plans.Free()
	done, err := runtime.FromSlice(dev, []uint32{0})
	if err != nil {
		return nil, err
	}
	defer done.Free()
	// The counts of a sort before, which the kernel zeroes.
	stale := make([]uint32, passes*256+2*passes+2+len(keys)%300)
	for i := range stale {
		stale[i] = uint32(i) | 1
	}
	clear, err := runtime.FromSlice(dev, stale)
	if err != nil {
		return nil, err
	}
	defer clear.Free()
	if err := dev.Launch(fn, runtime.LaunchConfig{}, in, hist, plans, done, clear, uint32(0), uint32(32), uint32(parts),
		uint32(passes), inPlace); err != nil {
		return nil, err
	}
	cleared, err := clear.ToSlice()
	if err != nil {
		return nil, err
	}
	if i := slices.IndexFunc(cleared, func(c uint32) bool { return c != 0 }); i >= 0 {
		return nil, fmt.Errorf("clear[%d] = %d of %d words, want every word zero", i, cleared[i], len(cleared))
	}
	return plans.ToSlice()
}

// checkPlans says what is wrong with plans (a word per pass, then the
// tail's) for keys whose pass q varies when varies[q], sorted in place or
// not.
func checkPlans(plans []uint32, varies []bool, inPlace bool) string {
	const (
		atIn = iota
		atOut
		atAlt
	)
	same := func(a, b int) bool { return a == b || inPlace && a != atAlt && b != atAlt }
	at, copies, ranks := atIn, 0, 0
	for q, w := range plans {
		if q < len(varies) && (w&planRank != 0) != varies[q] {
			return fmt.Sprintf("pass %d ranks %v, its byte varies %v", q, w&planRank != 0, varies[q])
		}
		if q == len(varies) && w&planRank != 0 {
			return "the tail ranks"
		}
		if w&(planRank|planCopy) == 0 {
			continue
		}
		if w&planRank != 0 && w&planCopy != 0 {
			return fmt.Sprintf("pass %d both ranks and copies", q)
		}
		if w&planRank != 0 {
			ranks++
		} else {
			copies++
		}
		from, to := atAlt, atAlt
		switch {
		case w&planFromIn != 0:
			from = atIn
		case w&planFromOut != 0:
			from = atOut
		}
		if w&planToOut != 0 {
			to = atOut
		}
		if !same(from, at) {
			return fmt.Sprintf("pass %d reads buffer %d, the keys are in %d", q, from, at)
		}
		if same(from, to) {
			return fmt.Sprintf("pass %d reads and writes buffer %d", q, to)
		}
		at = to
	}
	if !same(at, atOut) {
		return fmt.Sprintf("the keys end in buffer %d", at)
	}
	switch {
	case !inPlace && ranks > 0 && copies > 0:
		return fmt.Sprintf("%d copies into another buffer", copies)
	case copies > 1:
		return fmt.Sprintf("%d copies", copies)
	}
	return ""
}
