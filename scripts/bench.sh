#!/bin/sh
# make bench: the in-process Go benchmarks, then a short wire run of every
# nsbench scenario against a freshly started NameServer and the zero-work
# baseline, written to docs/performance.md (the figures and the method of
# cmd/nsbench/internal/suite/notes.md; make bench-scale's section is kept)
# and docs/route-latency.svg.
# Not part of make test or CI: it takes a few minutes and its figures
# depend on the machine. WIRE_ONLY=1 skips the Go benchmarks (make bench-wire).
set -eu
GO=${GO:-go}
BIN=${BIN:-bin}
BENCHTIME=${BENCHTIME:-500ms}
SUITE_FLAGS=${SUITE_FLAGS:-}
gobench_failed=0
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$GO" build -o "$BIN/" ./cmd/namesrv ./cmd/nsbench
if [ "${WIRE_ONLY:-0}" != 1 ]; then
	echo "== in-process benchmarks (-benchtime $BENCHTIME)" >&2
	# not through a pipe: sh has no pipefail, and a failing benchmark must
	# not drop out of the page unnoticed (the wire run still goes on)
	"$GO" test -run '^$' -bench . -skip BenchmarkScale -benchmem -benchtime "$BENCHTIME" ./remoting/ ./route/ >"$out/gobench.txt" 2>&1 ||
		gobench_failed=1
	cat "$out/gobench.txt" >&2
else
	: >"$out/gobench.txt"
fi
# the flood target of issue 22 is the fault suite's 2 MB registration flood:
# its case runs here and its report row goes to the suite; a failing case
# still writes its row (its figures show why), the page says met or not
echo "== 2 MB registration flood (test/faults TestFloodLargeRegistrations)" >&2
FAULTS_FULL=1 FAULTS_REPORT="$out/flood.md" "$GO" test -count=1 -v -run '^TestFloodLargeRegistrations$' ./test/faults/ >&2 ||
	echo "make bench: the flood case failed; its row is still read" >&2
flood_flag=""
if [ -s "$out/flood.md" ]; then
	flood_flag="-flood-report $out/flood.md"
fi
echo "== wire benchmarks (nsbench suite)" >&2
# shellcheck disable=SC2086 # SUITE_FLAGS and flood_flag are lists of flags
"$BIN/nsbench" suite -namesrv "$BIN/namesrv" -gobench "$out/gobench.txt" $flood_flag \
	-out docs/performance.md -svg docs/route-latency.svg $SUITE_FLAGS
if [ "$gobench_failed" = 1 ]; then
	echo "make bench: an in-process benchmark failed (FAIL above); the page was written without its figures" >&2
	exit 1
fi
