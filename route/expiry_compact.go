package route

// dropRetired refiles every current entry and forgets the retired ones
// (replaced or removed), which would otherwise stay filed until their old
// deadline. setLive calls it once the filings since the last call exceed
// the live entries by expiryCompactSlack.
func (w *expiryWheel) dropRetired() {
	old := w.buckets
	*w = newExpiryWheel()
	for _, list := range old {
		for _, entry := range list {
			if !entry.retired {
				w.file(entry)
			}
		}
	}
}
