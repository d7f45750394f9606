//go:build !linux

package rev

import "os"

// startWriteback is a no-op where the kernel offers no asynchronous writeback
// hint; the fsync before publishing does all the work.
func startWriteback(*os.File) {}
