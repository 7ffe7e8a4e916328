package eval

// accessKind is what an access does to memory.
type accessKind uint8

const (
	readAccess accessKind = iota
	writeAccess
	atomicAccess
)

func (k accessKind) String() string {
	switch k {
	case writeAccess:
		return "write"
	case atomicAccess:
		return "atomic"
	}
	return "read"
}

// access is one access of one thread to one address, with the barrier
// epochs of that thread.
type access struct {
	kind       accessKind
	sameValue  bool   // a plain write that many threads may do with one value
	value      uint64 // the value written
	mem        int32  // the memory (index in machine.mems) accessed through
	block      int    // the block; for shared memory, the block body's generation
	thread     int
	warp       int
	blockEpoch uint32
	warpEpoch  uint32
	site       int32 // index of the accessing node's position
}

// accessSet summarises the accesses of one kind to one address in the
// current barrier epoch of the current block. The zero value is empty.
type accessSet struct {
	warp      int16  // warp+1 of the accesses; 0: none; severalWarps
	thread    int16  // thread of the accesses in the latest warp epoch, or severalThreads
	warpEpoch uint32 // latest warp epoch of the accesses (one warp only)
	site      int32  // a node that made one of the accesses
	mem       int32  // the memory that access went through
}

const (
	severalWarps   = -1
	severalThreads = -1
)

// conflicts reports whether some access of the set is by another thread
// and not ordered before a by a barrier.
func (s *accessSet) conflicts(a *access) bool {
	switch {
	case s.warp == 0:
		return false
	case s.warp == severalWarps || int(s.warp) != a.warp+1:
		return true
	}
	return s.warpEpoch == a.warpEpoch && int(s.thread) != a.thread
}

func (s *accessSet) add(a *access) {
	switch {
	case s.warp == 0:
		*s = accessSet{warp: int16(a.warp + 1), thread: int16(a.thread), warpEpoch: a.warpEpoch, site: a.site, mem: a.mem}
	case s.warp == severalWarps:
	case int(s.warp) != a.warp+1:
		s.warp = severalWarps
	case s.warpEpoch != a.warpEpoch:
		s.warpEpoch, s.thread, s.site, s.mem = a.warpEpoch, int16(a.thread), a.site, a.mem
	case int(s.thread) != a.thread:
		s.thread = severalThreads
	}
}

// Flags of a shadow: what earlier blocks did (prev), what the current block
// did in any epoch (blk), and more.
const (
	prevRead uint16 = 1 << iota
	prevWrite
	prevAtomic
	prevMixed // plain writes that were not all SameValue writes of one value
	blkRead
	blkWrite
	blkAtomic
	blkMixed
	epochMixed // like prevMixed, for the plain writes of the current epoch
	written    // written by the current block (shared memory)

	prevFlags  = prevRead | prevWrite | prevAtomic | prevMixed
	blkToPrev  = 4 // shift from the blk flags to the prev flags
	blockFlags = blkRead | blkWrite | blkAtomic | blkMixed
)

// shadow is the race-detection state of one address (a cell of a
// region). The zero value is an address nobody touched.
type shadow struct {
	block   int32  // block+1 of the sets below; 0: none
	epoch   uint32 // block epoch of the sets below
	reads   accessSet
	writes  accessSet // plain writes
	atomics accessSet
	value   uint64 // the value of the latest SameValue write
	writer  int32  // the memory the latest write or atomic of the block went through
	flags   uint16
}

// conflict describes an earlier access that races with a new one.
type conflict struct {
	kind        accessKind
	set         *accessSet // nil: an access by an earlier block
	otherBlocks bool
}

// enter brings the shadow to a's block and epoch. Shadows of shared memory
// (perBlock) start afresh in each block.
func (s *shadow) enter(a *access, perBlock bool) {
	block := int32(a.block + 1)
	switch {
	case s.block != block && perBlock:
		*s = shadow{block: block, epoch: a.blockEpoch}
	case s.block != block:
		s.flags = s.flags&prevFlags | (s.flags&blockFlags)>>blkToPrev
		s.block, s.epoch = block, a.blockEpoch
		s.reads, s.writes, s.atomics = accessSet{}, accessSet{}, accessSet{}
	case s.epoch != a.blockEpoch:
		s.epoch = a.blockEpoch
		s.reads, s.writes, s.atomics = accessSet{}, accessSet{}, accessSet{}
		s.flags &^= epochMixed
	}
}

// record checks a against the earlier accesses, records it, and returns the
// earlier access it races with, if any.
func (s *shadow) record(a *access, perBlock bool) (c conflict, race bool) {
	s.enter(a, perBlock)
	c, race = s.check(a)
	if race && c.set != nil {
		earlier := *c.set // as it was before a joins it
		c.set = &earlier
	}
	switch a.kind {
	case readAccess:
		s.reads.add(a)
		s.flags |= blkRead
	case atomicAccess:
		s.atomics.add(a)
		s.flags |= blkAtomic | written
		s.writer = a.mem
	case writeAccess:
		switch {
		case !a.sameValue:
			s.flags |= epochMixed | blkMixed
		case s.value != a.value:
			if s.writes.warp != 0 {
				s.flags |= epochMixed
			}
			if s.flags&(blkWrite|prevWrite) != 0 {
				s.flags |= blkMixed
			}
		}
		if a.sameValue {
			s.value = a.value
		}
		s.writes.add(a)
		s.flags |= blkWrite | written
		s.writer = a.mem
	}
	return c, race
}

func (s *shadow) check(a *access) (conflict, bool) {
	sameAsBefore := func(mixed uint16) bool { return a.sameValue && s.flags&mixed == 0 && s.value == a.value }
	prevWrites := s.flags&prevWrite != 0 && !(a.kind == writeAccess && sameAsBefore(prevMixed))
	switch {
	case prevWrites:
		return conflict{kind: writeAccess, otherBlocks: true}, true
	case a.kind == writeAccess && s.flags&prevRead != 0:
		return conflict{kind: readAccess, otherBlocks: true}, true
	case a.kind == writeAccess && s.flags&prevAtomic != 0:
		return conflict{kind: atomicAccess, otherBlocks: true}, true
	case s.writes.conflicts(a) && !(a.kind == writeAccess && sameAsBefore(epochMixed)):
		return conflict{kind: writeAccess, set: &s.writes}, true
	case a.kind == writeAccess && s.reads.conflicts(a):
		return conflict{kind: readAccess, set: &s.reads}, true
	case a.kind == writeAccess && s.atomics.conflicts(a):
		return conflict{kind: atomicAccess, set: &s.atomics}, true
	}
	return conflict{}, false
}

// shadowPageBits sets the size of the pages of a shadowMemory.
const shadowPageBits = 10

// shadowMemory is the shadow of the cells of one region, allocated in
// pages as they are touched.
type shadowMemory struct {
	pages    [][]shadow
	perBlock bool // shared memory: each block (each block body) has its own
}

func newShadowMemory(n int, perBlock bool) *shadowMemory {
	return &shadowMemory{pages: make([][]shadow, (n>>shadowPageBits)+1), perBlock: perBlock}
}

func (sm *shadowMemory) at(i int) *shadow {
	p := sm.pages[i>>shadowPageBits]
	if p == nil {
		p = make([]shadow, 1<<shadowPageBits)
		sm.pages[i>>shadowPageBits] = p
	}
	return &p[i&(1<<shadowPageBits-1)]
}
