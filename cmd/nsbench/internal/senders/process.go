package senders

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"

	"github.com/sirupsen/logrus"
)

// Niceness is the CPU priority the child runs at (nice +10): when the
// machine's cores are all busy, the route clients of the parent and the
// server under test run before the registration senders, as if the brokers
// ran on machines of their own.
const Niceness = 10

// StartProcess runs the job in a child process, command followed by the
// job's flags (this executable: "nsbench storm-senders"), through nice(1)
// at niceness when that is above 0, with the child's log going to stderr,
// and waits until it is ready. nice must be set at the start: Linux gives
// each thread its own priority, so renicing a running Go process after its
// runtime has started threads would leave some of them at the old one.
func StartProcess(job Job, command []string, niceness int, stderr io.Writer, log *logrus.Entry) (*Client, error) {
	argv := append(append([]string{}, command...), job.Args()...)
	if niceness > 0 {
		if nice, err := exec.LookPath("nice"); err == nil {
			argv = append([]string{nice, "-n", strconv.Itoa(niceness)}, argv...)
		} else {
			log.WithError(err).Warn("no nice(1): the storm senders run at the parent's priority")
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = stderr
	commands, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("storm senders stdin: %w", err)
	}
	replies, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("storm senders stdout: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start storm senders %v: %w", argv, err)
	}
	log.WithFields(logrus.Fields{"pid": cmd.Process.Pid, "nice": niceness, "addr": job.Addr}).Debug("storm senders started")
	kill := func() { _ = cmd.Process.Kill() }
	// Wait runs after the replies are drained (Client.Close), as os/exec asks.
	wait := func() error {
		err := cmd.Wait()
		var exit *exec.ExitError
		if errors.As(err, &exit) && !exit.Exited() {
			return nil // killed by Close after stopTimeout: already reported by the missing result
		}
		return err
	}
	return newClient(job, commands, replies, kill, wait)
}
