package check

// Target describes the GPU the code is for.
type Target struct {
	// MaxSharedBytes is the shared memory a block may use (the opt-in
	// maximum of the device).
	MaxSharedBytes int
}

// DefaultTarget is sm_90 (H100, H200): 227 KiB of shared memory per block.
var DefaultTarget = Target{MaxSharedBytes: 227 * 1024}
