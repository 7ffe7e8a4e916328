// Package golden compares generated text with committed golden files, and
// rewrites them when tests run with -update. Every test binary of the module
// links it (a blank import in one test file per package is enough), so that
// `go test ./... -update` is accepted by all of them.
package golden
