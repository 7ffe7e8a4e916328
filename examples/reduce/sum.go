package reduce

import "github.com/obsidian-go/obsidian/runtime"

// Sum returns the sum of the elements of in (wrapping), computed on in's
// device by launching Reduce until one partial sum is left.
func Sum(dev runtime.Device, in *runtime.Buffer[uint32]) (uint32, error) {
	if in.Len() == 0 {
		return 0, nil
	}
	for {
		sums, err := runtime.Alloc[uint32](dev, (in.Len()+Chunk-1)/Chunk)
		if err != nil {
			return 0, err
		}
		if err := Reduce(dev, runtime.LaunchConfig{}, in, sums); err != nil {
			return 0, err
		}
		if sums.Len() == 1 {
			s, err := sums.ToSlice()
			if err != nil {
				return 0, err
			}
			return s[0], sums.Free()
		}
		in = sums
	}
}
