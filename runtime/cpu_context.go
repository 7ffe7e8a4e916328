package runtime

import "context"

// CPUContext makes ctx cancel every launch on the CPU device, as
// LaunchConfig.Context cancels one: a host pipeline that launches many
// kernels, such as a sort, stops at the next block once ctx is done, and
// every later launch fails at once. The error wraps the context's cause
// (context.Canceled or context.DeadlineExceeded).
func CPUContext(ctx context.Context) CPUOption {
	return func(d *cpuDevice) { d.ctx = ctx }
}

// launchContext returns the context that cancels a launch given cfg's: the
// device's or cfg's when only one is set, otherwise one done when either
// is, with that one's cause; stop releases it.
func (d *cpuDevice) launchContext(cfg context.Context) (ctx context.Context, stop func()) {
	switch {
	case d.ctx == nil:
		return cfg, func() {}
	case cfg == nil:
		return d.ctx, func() {}
	}
	merged, cancel := context.WithCancelCause(cfg)
	stopAfter := context.AfterFunc(d.ctx, func() { cancel(context.Cause(d.ctx)) })
	return merged, func() { stopAfter(); cancel(nil) }
}
