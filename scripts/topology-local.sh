#!/usr/bin/env bash
# The deployed topology of docker-compose.yml as processes on loopback, without Docker: a
# Kafka broker (scripts/kafka-local.sh), one writer and two read replicas (ROLE=reader,
# WRITER_URL), each a separate `npm run start:prod` (node dist/main.js, the Dockerfile's CMD)
# with the variables the compose file gives it; `start` runs `npm run build` first when dist/
# is older than the sources (test/scripts/deployFiles.unit.spec.ts holds the files equal).
#
#   scripts/topology-local.sh start          broker (if not running), writer, two replicas; wait until ready
#   scripts/topology-local.sh kill-writer    kill -9 the writer (a crash)
#   scripts/topology-local.sh start-writer   start a writer again (KAFKA_TAKEOVER=1: the dead one's lease may linger)
#   scripts/topology-local.sh stop           stop the services and the broker
#   scripts/topology-local.sh stop-services  stop the services, leave the broker running
#
# Settings (environment): KAFKA_PORT (default 9392), TOPOLOGY_PORT (writer's port, default
# 8100; replicas on +1 and +2), KAFKA_TOPIC (default netledger.changes), SUPERUSER_API_TOKEN.
# State in .cache/topology-<TOPOLOGY_PORT>/: the shared DATA_DIR (the writer's; the replicas
# read its secret_key, as the compose file mounts the volume read-only), pids and logs.
set -euo pipefail
trap 'echo "topology-local: ERROR: failed (line $LINENO: $BASH_COMMAND)" >&2' ERR

root="$(cd "$(dirname "$0")/.." && pwd)"
kafka_port="${KAFKA_PORT:-9392}"
writer_port="${TOPOLOGY_PORT:-8100}"
reader_ports=("$((writer_port + 1))" "$((writer_port + 2))")
topic="${KAFKA_TOPIC:-netledger.changes}"
run="$root/.cache/topology-$writer_port"
data="$run/data"
ready_timeout="${TOPOLOGY_READY_TIMEOUT:-180}"

say() { echo "topology-local: $*"; }
fail() { echo "topology-local: ERROR: $*" >&2; exit 1; }

# The compose file's `netledger` and `netledger-reader` environments (no MongoDB here: the
# writer's read models stay in memory), with loopback addresses for the service names.
common_env() {
  echo KAFKA_BROKERS="127.0.0.1:$kafka_port" KAFKA_TOPIC="$topic" HOST=127.0.0.1 DATA_DIR="$data" \
    SUPERUSER_API_TOKEN="${SUPERUSER_API_TOKEN:-0123456789abcdef0123456789abcdef01234567}"
}

# <name> <port> [VAR=value...]: a service (`npm run start:prod`, the Dockerfile's CMD) in a session
# of its own: it outlives this script, holds none of its output, and its process group (npm
# and the node server) is what stop and kill-writer signal, as a container's would be.
launch() {
  local name=$1 port=$2
  shift 2
  # shellcheck disable=SC2046 # common_env is several words
  (setsid nohup env $(common_env) PORT="$port" "$@" npm run start:prod >>"$run/$name.log" 2>&1 </dev/null &
    echo $! >"$run/$name.pid")
  say "$name started on 127.0.0.1:$port (pid $(cat "$run/$name.pid"), log ${run#"$root"/}/$name.log)"
}

wait_ready() { # <name> <port>
  local name=$1 port=$2 waited=0
  until curl -sf -o /dev/null "http://127.0.0.1:$port/readyz/"; do
    kill -0 "$(cat "$run/$name.pid")" 2>/dev/null || { tail -n 20 "$run/$name.log" >&2; fail "$name exited"; }
    [ "$waited" -lt "$((ready_timeout * 2))" ] || fail "$name not ready on port $port within $ready_timeout s"
    sleep 0.5
    waited=$((waited + 1))
  done
}

start_writer() {
  launch writer "$writer_port" KAFKA_REPLICATION_FACTOR=1 "$@"
  wait_ready writer "$writer_port"
  say "writer ready"
}

stop_one() { # <name> [signal]
  local pid_file="$run/$1.pid" pid
  [ -f "$pid_file" ] || return 0
  pid="$(cat "$pid_file")"
  # The session's process group: npm and the node server it started.
  if kill "-${2:-TERM}" -- "-$pid" 2>/dev/null; then
    while kill -0 -- "-$pid" 2>/dev/null; do sleep 0.1; done
  fi
  rm -f "$pid_file"
}

# The Dockerfile's build stage: compiled once, again only when a source is newer than dist/.
build() {
  if [ -f dist/main.js ] &&
    [ -z "$(find src package.json tsconfig.json tsconfig.build.json -newer dist/main.js -print -quit)" ]; then
    return 0
  fi
  say "npm run build (dist/ is missing or older than the sources)"
  npm run build >"$run/build.log" 2>&1 || { tail -n 20 "$run/build.log" >&2; fail "npm run build failed"; }
}
cd "$root"
case "${1:-}" in
  start)
    mkdir -p "$run" "$data"
    build
    KAFKA_PORT=$kafka_port "$root/scripts/kafka-local.sh" start
    start_writer
    launch reader1 "${reader_ports[0]}" ROLE=reader WRITER_URL="http://127.0.0.1:$writer_port"
    launch reader2 "${reader_ports[1]}" ROLE=reader WRITER_URL="http://127.0.0.1:$writer_port"
    wait_ready reader1 "${reader_ports[0]}"
    wait_ready reader2 "${reader_ports[1]}"
    say "writer on $writer_port, replicas on ${reader_ports[*]}: ready"
    ;;
  kill-writer) stop_one writer KILL; say "writer killed (kill -9)" ;;
  start-writer) build; start_writer KAFKA_TAKEOVER=1 ;;
  stop-services) for name in reader1 reader2 writer; do stop_one "$name"; done ;;
  stop)
    for name in reader1 reader2 writer; do stop_one "$name"; done
    KAFKA_PORT=$kafka_port "$root/scripts/kafka-local.sh" stop
    ;;
  *) echo "usage: $0 start | kill-writer | start-writer | stop | stop-services" >&2; exit 2 ;;
esac
