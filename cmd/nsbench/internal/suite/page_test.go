package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPublishedPageEndsWithTheNotes: docs/performance.md ends with notes.md
// as WriteMarkdown writes it, so the method is edited where make bench reads
// it; an edit made on the page itself would be lost at the next run.
func TestPublishedPageEndsWithTheNotes(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "docs", "performance.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(page), notes) {
		t.Fatal("docs/performance.md does not end with cmd/nsbench/internal/suite/notes.md: edit notes.md and copy its text over the page's \"## Method\" section (or run make bench)")
	}
	if !strings.Contains(string(page), "\n"+notesHeading+"\n") {
		t.Fatalf("docs/performance.md has no %q heading", notesHeading)
	}
}
