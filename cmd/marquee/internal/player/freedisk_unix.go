//go:build unix

package player

import "syscall"

// freeDisk is the heartbeat's free_disk_bytes: what an unprivileged writer has left on the queue's
// file system (a full disk is the usual way a player stops queuing plays).
func freeDisk(dir string) int64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0
	}
	return int64(st.Bavail) * int64(st.Bsize) // #nosec G115 -- free blocks × block size of a real disk is far below 2^63 (the conversions differ by platform)
}
