package proptest

import (
	"flag"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/leanovate/gopter"
)

// Long is the -long flag: run many more cases per property.
var Long = flag.Bool("long", false, "run property tests with many more cases")

// SeedVar is the environment variable that replays a logged seed.
const SeedVar = "OBSIDIAN_SEED"

// Seed returns the seed of a test's random generator: $OBSIDIAN_SEED when
// it is set, else a fresh one, logged so that a failure can be replayed.
func Seed(t testing.TB) uint64 {
	t.Helper()
	seed := rand.Uint64()
	if s := os.Getenv(SeedVar); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q is not an unsigned integer", SeedVar, s)
		}
		seed = v
	}
	t.Logf("seed %d (replay with %s=%d)", seed, SeedVar, seed)
	return seed
}

// Parameters returns gopter parameters for a test with a seed from Seed
// and minSuccessful cases (100 times more under -long).
func Parameters(t testing.TB, minSuccessful int) *gopter.TestParameters {
	t.Helper()
	p := gopter.DefaultTestParametersWithSeed(int64(Seed(t)))
	p.MinSuccessfulTests = minSuccessful
	if *Long {
		p.MinSuccessfulTests *= 100
	}
	return p
}
