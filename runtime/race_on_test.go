//go:build race

package runtime

// raceDetector reports whether the tests run with the race detector, under
// which sync.Pool drops what it is given at random, so that pooled memory
// is allocated again.
const raceDetector = true
