package sorts

// SetWide sets the Sorter's strategy for tables too wide for shared
// memory and for the reconstruct from a bitset (see wideStrategy), so that
// the tests can check and time every variant.
func (s *Sorter) SetWide(window int, warpOccurs bool, warpReconstructWords int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wide = wideStrategy{window: window, warpOccurs: warpOccurs, warpReconstructWords: warpReconstructWords}
}
