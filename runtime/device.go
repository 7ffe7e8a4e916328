package runtime

import (
	"context"
	"time"

	"github.com/obsidian-go/obsidian/ir"
)

// Device is where kernels run: a GPU (*GPU, from Open) or the CPU evaluator
// (CPU). All methods are safe to call from several goroutines.
type Device interface {
	// Name describes the device, e.g. "NVIDIA H200 (GPU 0)".
	Name() string
	// Alloc allocates device memory for n elements of type t. Most code
	// uses the typed Alloc function instead.
	Alloc(t ir.Type, n int) (*Mem, error)
	// Load prepares a kernel to launch: on a GPU it compiles (or finds in
	// the cache) and loads it; on the CPU it verifies it and keeps the IR.
	Load(k *ir.Kernel) (Function, error)
	// Launch runs f on the device with args, one per kernel parameter:
	// *Buffer[T] values (or views) for arrays, Go scalars for scalars.
	// On a GPU the launch is asynchronous: copies back to the host, Launch
	// on other streams, Synchronize and events order it.
	Launch(f Function, cfg LaunchConfig, args ...any) error
	// Synchronize waits for all work on the device to finish.
	Synchronize() error
	// NewStream returns a new stream (an ordered queue of launches).
	NewStream() (Stream, error)
	// NewEvent returns a new event, for timing work on a stream.
	NewEvent() (Event, error)
	// Close releases the device. Buffers and functions of a closed device
	// can no longer be used.
	Close() error
}

// Function is a kernel loaded on a device, ready to launch there.
type Function interface {
	// Name returns the kernel's name.
	Name() string
	// Signature returns the kernel's parameters, which Launch checks its
	// arguments against.
	Signature() Signature
	// Threads returns the number of threads per block.
	Threads() int
	// SharedBytes returns the shared memory per block, in bytes.
	SharedBytes() int
}

// LaunchConfig says how to launch a kernel. The zero value launches as many
// blocks as the kernel's Blocks expression asks for, on the default stream,
// and cannot be cancelled.
type LaunchConfig struct {
	// Blocks is the number of blocks; 0 means the kernel's Blocks
	// expression evaluated for the launch's arguments (a result below 1
	// launches one block). More than 2^31-1 blocks, the largest grid a GPU
	// launches, is an error.
	Blocks int
	// Stream is where the launch is queued; nil means the default stream.
	Stream Stream
	// Context, when not nil, cancels the launch. A launch whose context is
	// done before it starts does not start. The CPU device also checks it
	// before each block and every few hundred loop iterations or warps
	// within one, and stops there, so a long launch ends soon after the
	// cancellation; a GPU launch, once queued, runs to its end. The error
	// of a cancelled launch wraps Context.Err().
	Context context.Context
}

// Stream is an ordered queue of work on a device. Work on different streams
// may overlap; copies between host and device wait for all streams.
type Stream interface {
	// Synchronize waits for the work queued on the stream to finish.
	Synchronize() error
	// Close releases the stream.
	Close() error
}

// Event marks a point in a stream's work, for timing it.
type Event interface {
	// Record marks the point after the work queued so far on s (nil: the
	// default stream).
	Record(s Stream) error
	// Synchronize waits until the recorded point is reached.
	Synchronize() error
	// Since returns the time between start's recorded point and this
	// event's. Both must have been recorded and reached.
	Since(start Event) (time.Duration, error)
	// Close releases the event.
	Close() error
}

// maxBlocks is the largest grid a launch uses.
const maxBlocks = 1<<31 - 1
