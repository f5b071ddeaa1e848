#!/bin/sh
# make run-controller: a 3-node controller group on loopback, in the
# foreground until Ctrl-C (which stops all three).
#   BASE_PORT (9878): nodes n0-n2 serve brokers on BASE_PORT, BASE_PORT-10
#                     and BASE_PORT-20 (9878, 9868, 9858 as Java's controller
#                     samples and conf/controller.conf: clear of the second
#                     NameServer's 9877 of the docs), Raft on those + 1000,
#                     the HTTP side port on those + 2000
#   STORE (bin/controller-run): controllerStorePath; each node keeps its Raft
#                     store and its settings (UPDATE_CONTROLLER_CONFIG) in
#                     STORE/raft-nN/ (controller.properties), nothing in ~
#   ARGS: extra flags for every node, e.g. ARGS="-log-level debug"
set -eu
GO=${GO:-go}
BIN=${BIN:-bin}
BASE_PORT=${BASE_PORT:-9878}
STORE=${STORE:-$BIN/controller-run}
mkdir -p "$BIN" "$STORE"
"$GO" build -o "$BIN/controller" ./cmd/controller
p0=$BASE_PORT; p1=$((BASE_PORT - 10)); p2=$((BASE_PORT - 20))
PEERS="n0-127.0.0.1:$p0;n1-127.0.0.1:$p1;n2-127.0.0.1:$p2"
pids=""
stop() { for p in $pids; do kill "$p" 2>/dev/null || true; done; wait; }
trap stop INT TERM EXIT
for i in 0 1 2; do
	# shellcheck disable=SC2086
	"$BIN/controller" -controllerDLegerGroup group1 -controllerDLegerPeers "$PEERS" \
		-controllerDLegerSelfId "n$i" -controllerStorePath "$STORE" ${ARGS:-} &
	pids="$pids $!"
done
echo "controller group: $PEERS (Raft on +1000, side ports on +2000: curl http://127.0.0.1:$((p0 + 2000))/v1/controller); Ctrl-C stops"
wait
