// Command gendoc writes docs/configuration.md from the key table of
// namesrv/config (make docs): the command line and settings prose of
// header.md and footer.md around one row per key, each with its default,
// range, how it changes, whether Java has it and what it does.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gonamesrv/gonamesrv/internal/atomicfile"
)

func main() {
	out := flag.String("out", "docs/configuration.md", "the page to write")
	flag.Parse()
	if err := atomicfile.Write(*out, []byte(Render()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gendoc:", err)
		os.Exit(1)
	}
}
