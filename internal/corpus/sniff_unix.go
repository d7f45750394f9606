//go:build unix

// This file sniffs a file for NUL bytes with raw system calls: os.Open
// registers every file with the runtime poller, which costs more than the read
// itself when Walk sniffs thousands of small files.

package corpus

import (
	"slices"
	"syscall"
)

func isBinaryFile(abs string) (bool, error) {
	fd, err := syscall.Open(abs, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false, err
	}
	defer syscall.Close(fd)
	var buf [sniffLen]byte
	n := 0
	for n < len(buf) {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return false, err
		}
		if m == 0 {
			break
		}
		n += m
	}
	return slices.Contains(buf[:n], 0), nil
}
