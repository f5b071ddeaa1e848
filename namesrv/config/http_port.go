package config

import "strconv"

// HTTPPortOffset is how far above listenPort the HTTP side port is when
// httpListenPort is not given: 9876 -> 9880 (the port this server has
// always used), 9877 -> 9881, so that two NameServers started on one host
// with only -listenPort apart do not both ask for 9880.
const HTTPPortOffset = 4

// HTTPPortFor is httpListenPort's default for a listen port: listenPort +
// HTTPPortOffset; 0 (a free port) when listenPort is 0, and listenPort -
// HTTPPortOffset when the sum would not be a port.
func HTTPPortFor(listenPort int) int {
	switch {
	case listenPort <= 0:
		return 0
	case listenPort+HTTPPortOffset > 65535:
		return listenPort - HTTPPortOffset
	default:
		return listenPort + HTTPPortOffset
	}
}

// followListenPort gives httpListenPort its default from listenPort unless
// the -c file or a flag set it (given reports that).
func (c *Config) followListenPort(given bool) {
	if !given {
		c.HTTPListenPort = HTTPPortFor(c.ListenPort)
	}
}

// extensionDefault is a Go-only setting's default for cfg: httpListenPort's
// follows cfg's listenPort, so a server on 9877 neither lists nor persists
// the 9881 it derived, and follows a later listenPort change.
func extensionDefault(cfg *Config, st setting) string {
	if st.Key == "httpListenPort" {
		return strconv.Itoa(HTTPPortFor(cfg.ListenPort))
	}
	return extensionDefaults.format(st)
}
