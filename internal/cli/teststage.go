// This file defines the stages the integration tests stop a build or a
// stand at, through the environment, so an interrupt lands where the test
// means it to and never after the work has finished.

package cli

import (
	"context"
	"fmt"
	"io"
	"os"
)

// testStage is the rev.Options.Hook (and stand step hook) of the binary
// under test: at the stage $RAGRAF_TEST_PAUSE_AT names it writes "ragraf
// test: paused at STAGE" to w and waits until ctx ends (the test interrupts
// the process there); at the stage $RAGRAF_TEST_ANNOUNCE names it writes
// "ragraf test: at STAGE" and goes on. With neither set it is nil.
func testStage(ctx context.Context, w io.Writer) func(stage string) {
	pause, announce := os.Getenv("RAGRAF_TEST_PAUSE_AT"), os.Getenv("RAGRAF_TEST_ANNOUNCE")
	if pause == "" && announce == "" {
		return nil
	}
	return func(stage string) {
		switch stage {
		case pause:
			fmt.Fprintf(w, "ragraf test: paused at %s\n", stage)
			<-ctx.Done()
		case announce:
			fmt.Fprintf(w, "ragraf test: at %s\n", stage)
		}
	}
}
