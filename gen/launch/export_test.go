package launch

// CachedDevices returns the number of devices k's cache has an entry for.
func (k *Kernel) CachedDevices() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.loaded)
}
