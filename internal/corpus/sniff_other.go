//go:build !unix

// This file sniffs a file for NUL bytes on systems without the raw system
// calls of sniff_unix.go.

package corpus

import (
	"errors"
	"io"
	"os"
	"slices"
)

func isBinaryFile(abs string) (bool, error) {
	fh, err := os.Open(abs)
	if err != nil {
		return false, err
	}
	defer fh.Close()
	var buf [sniffLen]byte
	n, err := io.ReadFull(fh, buf[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return false, err
	}
	return slices.Contains(buf[:n], 0), nil
}
