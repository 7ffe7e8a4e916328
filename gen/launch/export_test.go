package launch

// CachedDevices returns the number of devices k's cache has an entry for.
func (k *Kernel) CachedDevices() int {
	k.cacheMu.Lock()
	defer k.cacheMu.Unlock()
	return len(k.loaded)
}
