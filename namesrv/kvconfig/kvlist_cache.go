package kvconfig

import "reflect"

// A namespace's KVTable body (GET_KVLIST_BY_NAMESPACE, and the order-topic
// config a registration is answered with) is encoded once per change of
// that namespace and answered from those bytes until the next: an 8 MB
// namespace asked for 9 times a second was encoded 9 times a second, on the
// event loop. A change replaces the namespace's map (a published table is
// never modified), so the map a body was encoded from tells whether it is
// still current. The bodies held are at most one per namespace, as large as
// the namespace's part of the file (MaxFileBytes bounds the file), plus, for
// a namespace changed since it was last asked for, the previous one until it
// is asked for again.

// encodedNamespace is a namespace's body and the map it was encoded from,
// kept so that map's address cannot be reused by another while it is cached.
type encodedNamespace struct {
	kv   map[string]string
	body []byte
}

// KVTableJSON returns the namespace as a KVTable body, {"table":{...}},
// compact with keys sorted, and whether the namespace exists. The body is
// shared: callers must not modify it.
func (s *Store) KVTableJSON(namespace string) ([]byte, bool) {
	kv, ok := (*s.table.Load())[namespace]
	if !ok {
		return nil, false
	}
	if body, ok := s.cachedBody(namespace, kv); ok {
		return body, true
	}
	body := encodeKVTable(kv)
	s.encoded.Store(namespace, &encodedNamespace{kv: kv, body: body})
	return body, true
}

// CachedKVTableJSON is KVTableJSON without the encoding: it answers only
// when the namespace is missing or its current body is already encoded
// (cached false otherwise), so an event loop can serve the common case and
// leave the encoding of a changed, possibly large, namespace to a pool.
func (s *Store) CachedKVTableJSON(namespace string) (body []byte, found, cached bool) {
	kv, ok := (*s.table.Load())[namespace]
	if !ok {
		return nil, false, true
	}
	body, cached = s.cachedBody(namespace, kv)
	return body, true, cached
}

func (s *Store) cachedBody(namespace string, kv map[string]string) ([]byte, bool) {
	e, ok := s.encoded.Load(namespace)
	if !ok {
		return nil, false
	}
	enc := e.(*encodedNamespace)
	if reflect.ValueOf(enc.kv).UnsafePointer() != reflect.ValueOf(kv).UnsafePointer() {
		return nil, false
	}
	return enc.body, true
}
