package suite

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
)

// The flood target (issue 22 item 2): during the fault suite's flood of 2 MB
// registrations (test/faults TestFloodLargeRegistrations: 64 connections x
// 8 pipelined, -requestMemoryLimit 268435456), route p99 at most 20 ms with
// every route query and every registration answered (success or
// SYSTEM_BUSY). make bench runs that case (scripts/bench.sh) and hands its
// report row to the suite (-flood-report).
const (
	floodRouteP99Limit = 20 * time.Millisecond
	// FloodCase is the fault case whose row is read.
	FloodCase = "TestFloodLargeRegistrations"
)

// The facts read from the flood's row.
const (
	FactFloodRouteP99        = "registration flood: route p99 during the flood (ms)"
	FactFloodRouteQuietP99   = "registration flood: route p99 quiet (ms)"
	FactFloodRouteAnswered   = "registration flood: route queries answered"
	FactFloodRouteUnanswered = "registration flood: route queries unanswered"
	FactFloodRegisteredOK    = "registration flood: registrations answered 0"
	FactFloodRegisteredBusy  = "registration flood: registrations answered SYSTEM_BUSY"
	FactFloodRegisteredOther = "registration flood: registrations answered otherwise or not"
)

var (
	floodRouteFigure = regexp.MustCompile(`route p99 quiet / during the flood: (\S+) / (\S+) \((\d+) queries, (\d+) unanswered\)`)
	floodRegFigure   = regexp.MustCompile(`registrations answered 0 / SYSTEM_BUSY / other or error: (\d+) / (\d+) / (\d+)`)
)

// FloodFacts reads the figures of FloodCase's row from a fault report page
// (test/faults' FAULTS_REPORT layout, as docs/reliability.md).
func FloodFacts(page string) ([]report.Fact, error) {
	var line string
	for l := range strings.Lines(page) {
		if strings.Contains(l, "`"+FloodCase+"`") {
			line = l
		}
	}
	if line == "" {
		return nil, fmt.Errorf("fault report: no row of %s", FloodCase)
	}
	route, reg := floodRouteFigure.FindStringSubmatch(line), floodRegFigure.FindStringSubmatch(line)
	if route == nil || reg == nil {
		return nil, fmt.Errorf("fault report: the row of %s lacks its route or registration figures", FloodCase)
	}
	quiet, err1 := time.ParseDuration(route[1])
	during, err2 := time.ParseDuration(route[2])
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("fault report: route p99 %q / %q of %s: not durations", route[1], route[2], FloodCase)
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	count := func(s string) float64 { n, _ := strconv.ParseFloat(s, 64); return n } // \d+ matched
	return []report.Fact{
		{Name: FactFloodRouteQuietP99, Value: ms(quiet), Unit: "ms"},
		{Name: FactFloodRouteP99, Value: ms(during), Unit: "ms"},
		{Name: FactFloodRouteAnswered, Value: count(route[3])},
		{Name: FactFloodRouteUnanswered, Value: count(route[4])},
		{Name: FactFloodRegisteredOK, Value: count(reg[1])},
		{Name: FactFloodRegisteredBusy, Value: count(reg[2])},
		{Name: FactFloodRegisteredOther, Value: count(reg[3])},
	}, nil
}

// evaluateFlood is the flood target, from the facts FloodFacts read.
func evaluateFlood(r *report.Report) report.Target {
	goal := fmt.Sprintf("2 MB registration flood (make faults' %s): route p99 <= %v, every route query and every registration answered (0 or SYSTEM_BUSY)",
		FloodCase, floodRouteP99Limit)
	facts := map[string]float64{}
	for _, name := range []string{FactFloodRouteP99, FactFloodRouteQuietP99, FactFloodRouteAnswered, FactFloodRouteUnanswered,
		FactFloodRegisteredOK, FactFloodRegisteredBusy, FactFloodRegisteredOther} {
		v, ok := r.Fact(name)
		if !ok {
			return report.Target{Goal: goal, Measured: "not measured in this run"}
		}
		facts[name] = v
	}
	p99 := facts[FactFloodRouteP99]
	met := p99 <= float64(floodRouteP99Limit)/float64(time.Millisecond) && facts[FactFloodRouteAnswered] > 0 &&
		facts[FactFloodRouteUnanswered] == 0 && facts[FactFloodRegisteredOther] == 0
	return report.Target{Goal: goal, Met: met, Measured: fmt.Sprintf(
		"route p99 %.2f ms during the flood (%.2f ms quiet; %.0f queries, %.0f unanswered); registrations answered 0 / SYSTEM_BUSY / otherwise or not: %.0f / %.0f / %.0f",
		p99, facts[FactFloodRouteQuietP99], facts[FactFloodRouteAnswered], facts[FactFloodRouteUnanswered],
		facts[FactFloodRegisteredOK], facts[FactFloodRegisteredBusy], facts[FactFloodRegisteredOther])}
}
