//go:build !linux || poll_opt

package remoting

import "github.com/panjf2000/gnet/v2"

// setReading cannot pause reading here (read_pause_linux.go): connections
// whose peers do not read are bounded by the hard limit alone.
func setReading(gnet.Conn, bool) error { return errReadPauseUnsupported }
