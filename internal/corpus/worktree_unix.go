//go:build unix

package corpus

import (
	"os"
	"syscall"
)

// openFlags open a working-tree file without blocking (a FIFO swapped in
// after the stat opens at once, and the check on the descriptor refuses it)
// and without following a symlink swapped in for the resolved path.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOFOLLOW | syscall.O_CLOEXEC
