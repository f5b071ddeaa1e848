package httpapi

import (
	"embed"
	"io/fs"
	"net/http"
)

// dashboardFiles is the dashboard page: plain HTML, CSS and JavaScript
// written for this server, built into the binary; nothing is fetched from
// elsewhere at run time.
//
//go:embed dashboard
var dashboardFiles embed.FS

// dashboardIndex serves the page at /.
func dashboardIndex() http.Handler {
	page, err := dashboardFiles.ReadFile("dashboard/index.html")
	if err != nil {
		panic("httpapi: the embedded dashboard has no index.html: " + err.Error())
	}
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		// The page loads only its own scripts and styles and talks only to
		// this server.
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:")
		_, _ = w.Write(page)
	})
}

// dashboardAssets serves the page's scripts and styles under /assets/.
func dashboardAssets() http.Handler {
	sub, err := fs.Sub(dashboardFiles, "dashboard")
	if err != nil {
		panic("httpapi: embedded dashboard: " + err.Error())
	}
	return http.StripPrefix("/assets/", http.FileServerFS(sub))
}
