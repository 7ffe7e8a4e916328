package eval

// Race detection has two parts. Within a block, accesses are ordered by
// its barriers: a cellRecord keeps, for one cell, the accesses of the
// current barrier interval (and, for shared memory, what the block body
// wrote). Between blocks nothing is ordered: a region's blockWords (see
// words.go) keep, for every cell of global memory a launch writes, which
// kinds of access which blocks made, so that conflicting accesses of two
// blocks are found whichever block runs first.

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
	value      uint64 // the value written
	blockEpoch uint32
	warpEpoch  uint32
	site       int32  // index of the accessing node's position
	body       uint32 // for shared memory, the block body's generation
	thread     int16
	warp       int16
	mem        int16 // the memory (index in machine.mems) accessed through
	kind       accessKind
	sameValue  bool // a plain write that many threads may do with one value
}

// accessSet summarises the accesses of one kind to one address in the
// current barrier epoch of the current block. The zero value is empty.
type accessSet struct {
	// who is 0 for none, thread+1 for one thread (in the latest warp
	// epoch), -(warp+1) for several threads of one warp, or severalWarps.
	who       int16
	mem       int16  // the memory a node that made one of the accesses went through
	warpEpoch uint32 // latest warp epoch of the accesses (one warp only)
	site      int32  // that node
}

// severalWarps is accessSet.who for accesses of several warps: below
// -(warp+1) for every warp, the warps of asynchronous copiers (see
// copyAsyncLanes) included.
const severalWarps = -(maxThreadsPerBlk+asyncCopier)/warpSize - 1

// warp returns the warp of the accesses of a set of one warp.
func (s *accessSet) warp() int {
	if s.who > 0 {
		return int(s.who-1) / warpSize
	}
	return int(-s.who - 1)
}

// thread returns the thread of the accesses, -1 for several threads.
func (s *accessSet) thread() int { return max(int(s.who)-1, -1) }

// conflicts reports whether some access of the set is by another thread
// and not ordered before a by a barrier.
func (s *accessSet) conflicts(a *access) bool {
	switch {
	case s.who == 0:
		return false
	case s.who == severalWarps || s.warp() != int(a.warp):
		return true
	}
	return s.warpEpoch == a.warpEpoch && s.who != a.thread+1
}

func (s *accessSet) add(a *access) {
	switch {
	case s.who == 0:
		*s = accessSet{who: a.thread + 1, warpEpoch: a.warpEpoch, site: a.site, mem: a.mem}
	case s.who == severalWarps:
	case s.warp() != int(a.warp):
		s.who = severalWarps
	case s.warpEpoch != a.warpEpoch:
		s.warpEpoch, s.who, s.site, s.mem = a.warpEpoch, a.thread+1, a.site, a.mem
	case s.who != a.thread+1:
		s.who = -a.warp - 1
	}
}

// Flags of a cellRecord.
const (
	epochMixed uint8 = 1 << iota // the plain writes of the epoch were not all SameValue writes of one value
	written                      // written by the current block body (shared memory)
)

// cellRecord is the state of one cell within a block: the accesses of the
// current barrier interval and, for shared memory, what the current block
// body wrote. The zero value is a cell nobody touched.
type cellRecord struct {
	epoch  uint32       // block epoch of the sets below
	body   uint32       // shared memory: the block body of written and writer
	value  uint64       // the value of the latest SameValue write of the epoch
	sets   [3]accessSet // the accesses of the epoch, by kind (plain writes: writeAccess)
	writer int16        // the memory the latest write or atomic of the block body went through
	flags  uint8
}

// conflict describes an earlier access that races with a new one.
type conflict struct {
	kind        accessKind
	set         *accessSet // nil: an access by another block
	otherBlocks bool
}

// record checks a against the earlier accesses of its epoch, records it,
// and returns the earlier access it races with, if any. A record of an
// earlier epoch keeps what the block body wrote (for shared memory,
// perBody; a record of an earlier block body keeps nothing).
func (s *cellRecord) record(a *access, perBody bool) (c conflict, race bool) {
	switch {
	case perBody && s.body != a.body:
		*s = cellRecord{body: a.body}
		s.first(a)
		return c, false
	case s.epoch != a.blockEpoch:
		s.first(a)
		return c, false
	}
	if c, race = s.check(a); race {
		earlier := *c.set // as it was before a joins it
		c.set = &earlier
	}
	s.note(a)
	return c, race
}

// alone reports whether the accesses of the epoch are all by a's thread in
// a's warp epoch, so that a races with none of them.
func (s *cellRecord) alone(a *access) bool {
	for k := range s.sets {
		if set := &s.sets[k]; set.who != 0 && (set.who != a.thread+1 || set.warpEpoch != a.warpEpoch) {
			return false
		}
	}
	return true
}

// note records a, an access of the record's epoch.
func (s *cellRecord) note(a *access) {
	if a.kind == writeAccess {
		switch {
		case !a.sameValue:
			s.flags |= epochMixed
		case s.value != a.value && s.sets[writeAccess].who != 0:
			s.flags |= epochMixed
		}
		if a.sameValue {
			s.value = a.value
		}
	}
	if a.kind != readAccess {
		s.flags |= written
		s.writer = a.mem
	}
	s.sets[a.kind].add(a)
}

// firstRead records a, a read of shared memory through the array that last
// wrote the cell in a's block body, when it is the first access of its
// barrier interval to the cell (which then races with nothing and reads
// written bytes), and reports whether it was: a read sharedAccess records
// the same way and reports nothing about. It makes no call, so that a
// loop over a warp's lanes keeps its state in registers.
func (s *cellRecord) firstRead(a *access) bool {
	if s.body != a.body || s.flags&written == 0 || s.writer != a.mem || s.epoch == a.blockEpoch {
		return false
	}
	s.epoch = a.blockEpoch
	s.sets = [3]accessSet{readAccess: {who: a.thread + 1, warpEpoch: a.warpEpoch, site: a.site, mem: a.mem}}
	s.flags &^= epochMixed
	return true
}

// firstWrite records a, a plain write of shared memory, when it is the
// first access of its block body or of its barrier interval to the cell
// (which then races with nothing), and reports whether it was: a write
// sharedAccess records the same way and reports nothing about. It makes
// no call, as firstRead.
func (s *cellRecord) firstWrite(a *access) bool {
	switch {
	case s.body != a.body:
		*s = cellRecord{body: a.body}
	case s.epoch == a.blockEpoch:
		return false
	}
	s.epoch = a.blockEpoch
	s.sets = [3]accessSet{writeAccess: {who: a.thread + 1, warpEpoch: a.warpEpoch, site: a.site, mem: a.mem}}
	s.flags |= written | epochMixed
	s.writer = a.mem
	if a.sameValue {
		s.value = a.value
		s.flags &^= epochMixed
	}
	return true
}

// ownCell reports whether a, a plain write of shared memory that is not
// a SameValue write, follows in its barrier interval only accesses of its
// own thread in its warp epoch, so that it races with none of them.
func (s *cellRecord) ownCell(a *access) bool {
	return !a.sameValue && s.body == a.body && s.epoch == a.blockEpoch && s.alone(a)
}

// noteOwnWrite records a write for which ownCell holds, as note does. It
// makes no call, as firstRead.
func (s *cellRecord) noteOwnWrite(a *access) {
	s.flags |= written | epochMixed
	s.writer = a.mem
	if w := &s.sets[writeAccess]; w.who == 0 {
		*w = accessSet{who: a.thread + 1, warpEpoch: a.warpEpoch, site: a.site, mem: a.mem}
	}
}

// first records a as the first access of its epoch.
func (s *cellRecord) first(a *access) {
	s.epoch = a.blockEpoch
	set := accessSet{who: a.thread + 1, warpEpoch: a.warpEpoch, site: a.site, mem: a.mem}
	switch a.kind {
	case readAccess:
		s.sets = [3]accessSet{readAccess: set}
		s.flags &^= epochMixed
	case writeAccess:
		s.sets = [3]accessSet{writeAccess: set}
		s.flags |= written
		s.writer = a.mem
		if a.sameValue {
			s.value = a.value
			s.flags &^= epochMixed
		} else {
			s.flags |= epochMixed
		}
	case atomicAccess:
		s.sets = [3]accessSet{atomicAccess: set}
		s.flags = s.flags&^epochMixed | written
		s.writer = a.mem
	}
}

func (s *cellRecord) check(a *access) (conflict, bool) {
	write := a.kind == writeAccess
	sameAsBefore := write && a.sameValue && s.flags&epochMixed == 0 && s.value == a.value
	switch {
	case s.sets[writeAccess].conflicts(a) && !sameAsBefore:
		return conflict{kind: writeAccess, set: &s.sets[writeAccess]}, true
	case write && s.sets[readAccess].conflicts(a):
		return conflict{kind: readAccess, set: &s.sets[readAccess]}, true
	case write && s.sets[atomicAccess].conflicts(a):
		return conflict{kind: atomicAccess, set: &s.sets[atomicAccess]}, true
	}
	return conflict{}, false
}

// recordPageBits sets the size of the pages of a recordMemory.
const recordPageBits = 10

// flatRecords is the most cells of a recordMemory that holds its records
// in one slice, allocated at once: a block's shared arrays are mostly
// small, and a flat slice is the quickest to look a cell up in.
const flatRecords = 1 << 14

// recordMemory is the records of the cells of one shared region of one
// block: in one slice for a small region, else in pages allocated as they
// are touched.
type recordMemory struct {
	flat  []cellRecord
	pages [][]cellRecord
}

func newRecordMemory(n int) *recordMemory {
	if n <= flatRecords {
		return &recordMemory{flat: make([]cellRecord, n)}
	}
	return &recordMemory{pages: make([][]cellRecord, (n>>recordPageBits)+1)}
}

func (rm *recordMemory) at(i int) *cellRecord {
	if rm.flat != nil {
		return &rm.flat[i]
	}
	p := rm.pages[i>>recordPageBits]
	if p == nil {
		p = make([]cellRecord, 1<<recordPageBits)
		rm.pages[i>>recordPageBits] = p
	}
	return &p[i&(1<<recordPageBits-1)]
}

// reset forgets every record, for when the block bodies' generation
// counter wraps around.
func (rm *recordMemory) reset() {
	clear(rm.flat)
	for _, p := range rm.pages {
		clear(p)
	}
}
