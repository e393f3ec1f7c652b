//go:build !unix

package player

// freeDisk reports 0 (unknown) where statfs is not available.
func freeDisk(string) int64 { return 0 }
