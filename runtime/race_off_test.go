//go:build !race

package runtime

// raceDetector reports whether the tests run with the race detector (see
// race_on_test.go).
const raceDetector = false
