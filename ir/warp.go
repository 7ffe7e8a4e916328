package ir

// WarpSize is the number of lanes of a warp: the threads that run in
// lock step, exchange values through shuffles and ballots, and pass a
// Warp-level barrier together. A block has a whole number of warps.
const WarpSize = 32

// LaneBits is log2(WarpSize): a thread index shifted right by LaneBits is
// its warp within the block, and its low LaneBits bits are its lane.
const LaneBits = 5
