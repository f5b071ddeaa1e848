package topicconfig

// NextVersion bumps the DataVersion, and persists it, without touching a
// topic: Java's broker does it when brokerPermission changes online, so the
// NameServers take the next registration's perms instead of keeping what
// they have for an unchanged version (a wipeWritePerm, say).
func (s *Store) NextVersion() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commitLocked()
}
