//go:build unix

package server

import (
	"fmt"
	"os"
	"syscall"
)

// withFileLock runs f holding an exclusive flock on file: other processes
// (another server sharing the result log) wait. The lock goes with the
// process if it dies.
func withFileLock(file *os.File, f func() error) error {
	fd := int(file.Fd())
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return fmt.Errorf("lock %s: %w", file.Name(), err)
		}
	}
	defer func() { _ = syscall.Flock(fd, syscall.LOCK_UN) }()
	return f()
}
