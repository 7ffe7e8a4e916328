// Package scan runs device-wide prefix scans on a runtime.Device: one
// launch of arrays.DeviceScanKernel, a single pass with decoupled
// look-back that reads every element once and writes it once.
//
// A Scan is built once for an operator and a kind of scan, and run on as
// many buffers as needed; it keeps the scratch state (a tile counter and
// one status word per tile), which it grows when a longer input needs
// more. A Run costs one launch: the state is zeroed when it is allocated,
// and each Run after publishes its status words in an epoch of its own and
// numbers its tiles on from the Runs before, so that the words left by
// those count as unpublished and nothing is zeroed between Runs (only once
// in 2^31-2 Runs, when the epochs run out, or after a launch that failed). ExclusiveSum and InclusiveSum are the
// usual uint32 sums, on a Scan of their own per call. NewShaped builds a
// Scan whose blocks have another shape (arrays.DeviceScanShape: threads per
// block, elements per thread, bounds checks on the last tile only); every
// shape computes the same scan. New's shape depends on the input's length
// (arrays.DeviceScanShapeFor: 256 threads of 32 elements per block below
// 2^24 elements, 512 from there, tile i in block i), with its rows read
// and written as 16-byte vectors, and without them for views that do not
// start at a 16-byte boundary.
//
//	dev := runtime.CPU() // or runtime.Open(0)
//	s, err := scan.New(dev, dsl.U32.Add, 0, scan.Exclusive)
//	...
//	err = s.Run(in, out) // out[i] = in[0] + ... + in[i-1]
//
// Inputs of any length from 0 to 2^32-1 elements are scanned; a longer one,
// an out buffer of another length, or buffers of another device are
// errors, as is a state given to RunWithState that is too small.
package scan
