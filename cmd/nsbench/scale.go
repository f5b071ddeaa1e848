package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/proc"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/scenario"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/suite"
)

// scaleDescriptorsBesideClients is what the scale run needs of the open
// file limit beside its client connections: 1,000 broker connections, the
// route pipes, files and sockets of the NameServer.
const scaleDescriptorsBesideClients = 2500

// runScale is "nsbench scale": the scale scenario against a fresh
// NameServer; with -out, its block of the page is written (the rest of the
// page is left as make bench wrote it).
func runScale(ctx context.Context, o *options, stdout io.Writer, log *logrus.Entry) error {
	e, err := newEnv(ctx, o, log)
	if err != nil {
		return err
	}
	loads, _ := parseLoads(o.loads)
	spec := scenario.ScaleDefaults
	spec.Clients = o.scaleClients
	spec.Sources = strings.Split(o.scaleSources, ",")
	var notes []string
	if limit, err := proc.OpenFileLimit(); err == nil && uint64(spec.Clients+scaleDescriptorsBesideClients) > limit {
		capped := max(0, int(limit)-scaleDescriptorsBesideClients)
		notes = append(notes, fmt.Sprintf("client connections capped at %d of the %d asked: the open file limit is %d (ulimit -Hn; raising it needs CAP_SYS_RESOURCE), for this process and for the NameServer alike; memory and CPU per connection are the figures to scale", capped, spec.Clients, limit))
		log.WithFields(logrus.Fields{"limit": limit, "clients": capped}).Warn("client connections capped by the open file limit")
		spec.Clients = capped
	}
	result, err := scenario.Scale(e, spec, loads[0])
	if err != nil {
		return err
	}
	r := newReport(o, result)
	r.Mode = "scale"
	r.Notes = append(r.Notes[:1:1], notes...) // the JMH senders' note does not apply
	r.Targets = suite.ScaleTargets(&r)
	if o.markdownPath != "" {
		goBench, err := readGoBench(o.goBenchPath)
		if err != nil {
			return err
		}
		page, err := os.ReadFile(o.markdownPath)
		if err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("read %s: %w", o.markdownPath, err)
		}
		commands := []string{"make bench-scale      # or:",
			"go build -o bin/ ./cmd/namesrv ./cmd/nsbench",
			"go test -run '^$' -bench Scale -benchtime 3x ./route/ ./namesrv/ > /tmp/scale-gobench.txt",
			"bin/nsbench " + strings.Join(os.Args[1:], " ")}
		section := suite.ScaleSection(&r, goBench, commands)
		updated := suite.ReplaceScaleSection(string(page), section)
		if err := os.WriteFile(o.markdownPath, []byte(updated), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", o.markdownPath, err)
		}
	}
	return writeReport(stdout, o, &r)
}
