package proptest

import (
	"flag"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/leanovate/gopter"
)

// Long is the -long flag: run many more cases per property.
var Long = flag.Bool("long", false, "run property tests with many more cases")

// SeedVar is the environment variable that replays a logged seed.
const SeedVar = "OBSIDIAN_SEED"

// Parameters returns gopter parameters for a test with a seed taken from
// $OBSIDIAN_SEED (or the clock), logged so that a failure can be replayed,
// and minSuccessful cases (100 times more under -long).
func Parameters(t testing.TB, minSuccessful int) *gopter.TestParameters {
	t.Helper()
	seed := time.Now().UnixNano()
	if s := os.Getenv(SeedVar); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q is not an integer", SeedVar, s)
		}
		seed = v
	}
	t.Logf("property seed %d (replay with %s=%d)", seed, SeedVar, seed)
	p := gopter.DefaultTestParametersWithSeed(seed)
	p.MinSuccessfulTests = minSuccessful
	if *Long {
		p.MinSuccessfulTests *= 100
	}
	return p
}
