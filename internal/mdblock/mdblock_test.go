package mdblock

import (
	"strings"
	"testing"
)

func TestABlockGoesBeforeItsHeadingThenIsReplacedInPlace(t *testing.T) {
	b := Block{Begin: "<!-- x: begin -->", End: "<!-- x: end -->", Before: "## Notes"}
	page := b.Replace("# Page\n\ntext\n\n## Notes\n\nnotes\n", b.Begin+"\none\n"+b.End)
	if !strings.Contains(page, "text\n\n"+b.Begin+"\none\n"+b.End+"\n\n## Notes") {
		t.Fatalf("block not put before the notes:\n%s", page)
	}
	page = b.Replace(page, b.Begin+"\ntwo\n"+b.End)
	if strings.Count(page, b.Begin) != 1 || strings.Contains(page, "one") || b.Extract(page) != b.Begin+"\ntwo\n"+b.End {
		t.Fatalf("block not replaced:\n%s", page)
	}
	if b.Extract("no block") != "" || b.Extract(b.Begin+" but no end") != "" {
		t.Fatal("extract found a block that is not there")
	}
	if got := (Block{Begin: "<b>", End: "</b>"}).Replace("page\n\n", "<b>s</b>"); got != "page\n\n<b>s</b>\n" {
		t.Fatalf("no heading: %q", got)
	}
}
