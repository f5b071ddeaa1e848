package httpapi

import "net/http"

// nosniff sets X-Content-Type-Options: nosniff on every answer of the side
// port, errors, 404s and 503s included, before any handler writes: a
// browser then takes each answer as the Content-Type it names and never
// guesses (a JSON error echoing a path is not run as a script or page).
// Only the answers net/http writes before any handler runs (a malformed
// request, a header over MaxHeaderBytes) go without it.
func nosniff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}
