// Command ragraf indexes a code repository into immutable revisions and answers
// agents' questions about it. See `ragraf help`.
package main

import (
	"os"

	"github.com/ragraf/ragraf/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.StdIO()))
}
