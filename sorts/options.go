package sorts

// Option configures a Sorter made by New.
type Option func(*config)

// config is what the options set.
type config struct {
	paper bool
}

// Paper makes the Sorter's CountingSort, OccurrenceSort, Histogram, Scan
// and the sorts built on them run the paper's kernels as written (one
// global atomic per key, one thread per value in reconstruct) instead of
// the fast pipeline: for comparing the two. PaperCountingSort and
// PaperOccurrenceSort run them whatever the options.
func Paper() Option { return func(c *config) { c.paper = true } }
