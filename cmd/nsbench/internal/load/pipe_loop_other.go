//go:build !linux

package load

import (
	"context"
	"errors"
)

// rawPipes is false: elsewhere every pipe is a net.Conn on a goroutine.
const rawPipes = false

var errNoRawPipes = errors.New("raw pipes need Linux")

func dialRaw(context.Context, string) (int, error) { return -1, errNoRawPipes }

func closeRaw(int) error { return nil }

func readRaw(int, []byte) (int, error) { return 0, errNoRawPipes }

func writeRaw(int, []byte) error { return errNoRawPipes }

func runLoops(runs []*pipeRun) { failAll(runs, errNoRawPipes) }
