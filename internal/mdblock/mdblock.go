// Package mdblock finds and replaces a generated block of a Markdown page:
// the text from a begin marker through an end marker (HTML comments), which
// a make target writes anew while the hand-written rest of the page stays.
package mdblock

import "strings"

// Block is one generated block's markers and where a page without it gets it.
type Block struct {
	Begin, End string
	// Before is the text (a heading) the block goes in front of when the page
	// has no block yet; at the end of the page when "" or absent.
	Before string
}

// Extract returns the block of page, markers included, "" when it has none.
func (b Block) Extract(page string) string {
	start := strings.Index(page, b.Begin)
	if start < 0 {
		return ""
	}
	end := strings.Index(page[start:], b.End)
	if end < 0 {
		return ""
	}
	return page[start : start+end+len(b.End)]
}

// Replace puts section into page in place of its block, or, when it has
// none, before b.Before (or at the end).
func (b Block) Replace(page, section string) string {
	if old := b.Extract(page); old != "" {
		return strings.Replace(page, old, section, 1)
	}
	if at := strings.Index(page, b.Before); b.Before != "" && at >= 0 {
		return page[:at] + section + "\n\n" + page[at:]
	}
	return strings.TrimRight(page, "\n") + "\n\n" + section + "\n"
}
