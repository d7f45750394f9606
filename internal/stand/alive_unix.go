//go:build unix

package stand

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with pid exists (signal 0 is
// delivered, or refused for lack of permission).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
