//go:build !unix

package corpus

import "os"

// openFlags: systems without O_NONBLOCK have no FIFOs in the file system.
const openFlags = os.O_RDONLY
