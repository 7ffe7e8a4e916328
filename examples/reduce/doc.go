// Package reduce sums blocks of 256 uint32 values (wrapping, as uint32
// does): each block loads its chunk into shared memory and adds it up in a
// tree of halving steps, one barrier each, writing one partial sum per
// block. Reduce, in reduce_launch.go, launches it; Sum adds the partial
// sums up by launching it again until one is left.
package reduce
