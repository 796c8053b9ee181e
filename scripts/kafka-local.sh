#!/usr/bin/env bash
# A single-node Apache Kafka broker (KRaft: broker and controller in one JVM) on this
# machine, for the Kafka adapter's tests and local runs, without Docker: the broker's jars
# come from Maven Central (scripts/kafka/pom.xml), Java 17+ and Maven 3.8+ must be installed.
#
#   scripts/kafka-local.sh start [--fresh]   fetch (once) and start, wait until it answers
#   scripts/kafka-local.sh stop              stop it and wait until it has exited
#   scripts/kafka-local.sh kill              kill -9 it (a crash, for the fault tests); data kept
#   scripts/kafka-local.sh status            exit 0 and say so while it runs, 1 otherwise
#
# Settings (environment):
#   KAFKA_VERSION          broker version (default 3.9.2; 4.x works too, e.g. 4.4.0)
#   KAFKA_PORT             client listener on 127.0.0.1 (default 9092)
#   KAFKA_CONTROLLER_PORT  KRaft controller listener (default KAFKA_PORT + 1)
#   KAFKA_START_TIMEOUT    seconds to wait for the broker to answer (default 90)
#   KAFKA_HEAP_OPTS        JVM heap (default -Xms256m -Xmx768m)
#
# Jars are kept in .cache/kafka-<version>/libs and reused; each port has its own state in
# .cache/kafka-run-<port>/ (server.properties, data/, broker.log, broker.pid). The data is
# kept across stop/start (a test stops and restarts the broker mid-transaction); --fresh
# deletes it first. Then: KAFKA_BROKERS=127.0.0.1:9092 npx ava test/events/kafkaEventLog.int.spec.ts
set -euo pipefail
# Never fail silently: a command that stops the script says which one.
trap 'echo "kafka-local: ERROR: failed (line $LINENO: $BASH_COMMAND)" >&2' ERR
java=()

root="$(cd "$(dirname "$0")/.." && pwd)"
version="${KAFKA_VERSION:-3.9.2}"
port="${KAFKA_PORT:-9092}"
controller_port="${KAFKA_CONTROLLER_PORT:-$((port + 1))}"
start_timeout="${KAFKA_START_TIMEOUT:-90}"
heap="${KAFKA_HEAP_OPTS:--Xms256m -Xmx768m}"
major="${version%%.*}"

libs="$root/.cache/kafka-$version/libs"
run="$root/.cache/kafka-run-$port"
pid_file="$run/broker.pid"
log_file="$run/broker.log"

say() { echo "kafka-local: $*"; }
fail() { echo "kafka-local: ERROR: $*" >&2; exit 1; }

running_pid() {
  [ -f "$pid_file" ] || return 1
  local pid
  pid="$(cat "$pid_file")"
  kill -0 "$pid" 2>/dev/null || return 1
  echo "$pid"
}

# The errors of the last start (their first lines: the cause is usually among them), then
# the log's last lines; a failed start's tail is mostly the orderly shutdown after the error.
log_tail() {
  [ -f "$log_file" ] || return 0
  local this_start
  this_start="$(awk '/^=== .* kafka-local start /{n=NR} END{print n+0}' "$log_file")"
  echo "---- errors in $log_file ----" >&2
  tail -n "+$((this_start > 0 ? this_start : 1))" "$log_file" |
    grep -E '(ERROR|FATAL)|^Caused by|Exception:' | head -n 12 >&2 || true
  echo "---- last lines ----" >&2
  tail -n 15 "$log_file" >&2
  echo "----" >&2
}

# The broker's jars, fetched once per version. Kafka's POM lacks the logging backend its
# binary distribution adds: 3.x uses slf4j-reload4j + reload4j (the log4j 1 API that
# kafka.utils.Log4jController imports); 4.x depends on log4j2 (log4j-api/-core, through
# kafka-server) but lacks the slf4j 1.7 binding (log4j-slf4j-impl) of the same version.
fetch() {
  [ -f "$libs/.complete" ] && return 0
  command -v mvn >/dev/null || fail "Maven (mvn) is not installed: it fetches the Kafka broker from Maven Central"
  local tmp="$libs.partial" mvn_log
  mvn_log="$(mktemp)"
  rm -rf "$tmp"
  say "fetching Kafka $version from Maven Central into ${libs#"$root"/}"
  local mvn=(mvn -B -q -f "$root/scripts/kafka/pom.xml" dependency:copy-dependencies
    "-Dkafka.version=$version" "-Dlibs.dir=$tmp")
  if [ "$major" -ge 4 ]; then
    if "${mvn[@]}" >"$mvn_log" 2>&1; then
      local core log4j2=()
      core="$(find "$tmp" -name 'log4j-core-*.jar' -printf '%f\n' | head -n 1)"
      core="${core#log4j-core-}"
      # 4.0's POM pulls in no log4j2: the profile's default (2.24.3, 4.1.0's) then.
      [ -n "$core" ] && log4j2=("-Dlog4j2.version=${core%.jar}")
      "${mvn[@]}" -Pkafka4 "${log4j2[@]}" >>"$mvn_log" 2>&1 || {
        cat "$mvn_log" >&2; rm -rf "$tmp" "$mvn_log"
        fail "Maven could not fetch the log4j2 jars for Kafka $version"
      }
    else
      cat "$mvn_log" >&2; rm -rf "$tmp" "$mvn_log"
      fail "Maven could not fetch org.apache.kafka:kafka_2.13:$version" \
        "(is Maven Central reachable? is $version published?)"
    fi
  else
    "${mvn[@]}" -Pkafka3 >"$mvn_log" 2>&1 || {
      cat "$mvn_log" >&2; rm -rf "$tmp" "$mvn_log"
      fail "Maven could not fetch org.apache.kafka:kafka_2.13:$version" \
        "(is Maven Central reachable? is $version published?)"
    }
  fi
  rm -f "$mvn_log"
  touch "$tmp/.complete"
  rm -rf "$libs"
  mv "$tmp" "$libs"
  say "fetched $(find "$libs" -name '*.jar' | wc -l) jars ($(du -sh "$libs" | cut -f1))"
}

write_config() {
  mkdir -p "$run/data"
  # One node: the internal topics can have one copy only (transactions and consumer groups
  # need them), one partition each is plenty; a fresh consumer group would otherwise wait
  # 3 s for more members; netledger creates its own topic (one partition, kept forever).
  # Idle connections close after 20 s instead of 10 minutes: a test process holding a client
  # that a broker restart left connected (seen after the fault tests) exits 20 s after its
  # tests, not 10 minutes; clients reconnect on their next request.
  cat >"$run/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$port
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$run/data
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
min.insync.replicas=1
group.initial.rebalance.delay.ms=0
connections.max.idle.ms=20000
EOF
  if [ "$major" -ge 4 ]; then
    cat >>"$run/server.properties" <<EOF
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
EOF
    cat >"$run/log4j2.properties" <<'EOF'
status = warn
appender.out.type = Console
appender.out.name = out
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = info
rootLogger.appenderRef.out.ref = out
logger.request.name = kafka.request.logger
logger.request.level = warn
logger.state.name = state.change.logger
logger.state.level = warn
EOF
  else
    cat >"$run/log4j.properties" <<'EOF'
log4j.rootLogger=INFO, out
log4j.appender.out=org.apache.log4j.ConsoleAppender
log4j.appender.out.layout=org.apache.log4j.PatternLayout
log4j.appender.out.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
EOF
  fi
}

java_args() {
  local logging
  if [ "$major" -ge 4 ]; then logging="-Dlog4j2.configurationFile=$run/log4j2.properties"
  else logging="-Dlog4j.configuration=file:$run/log4j.properties"; fi
  # shellcheck disable=SC2206 # the heap options are several words
  java=(java $heap -XX:+UseG1GC -Djava.awt.headless=true "$logging" -cp "$libs/*")
}

format_storage() {
  [ -f "$run/data/meta.properties" ] && return 0
  # A cluster id is 16 random bytes in URL-safe base64 without padding; one starting with '-'
  # would be read as an option by the storage tool (1 start in 64 failed so): draw again.
  local cluster_id
  cluster_id="-"
  while [[ $cluster_id == -* ]]; do
    cluster_id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
  done
  # With controller.quorum.voters set (a static quorum), format needs no --standalone.
  java_args
  if ! "${java[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$run/server.properties" >>"$log_file" 2>&1; then
    log_tail
    fail "formatting the storage in ${run#"$root"/}/data failed"
  fi
}

start() {
  local fresh=0
  [ "${1:-}" = "--fresh" ] && fresh=1
  command -v java >/dev/null || fail "Java is not installed (Kafka needs Java 17+)"
  mkdir -p "$run"
  local pid
  if pid="$(running_pid)"; then
    if [ "$fresh" = 1 ]; then stop; else
      local other
      other="$(cat "$run/version" 2>/dev/null || true)"
      [ "$other" = "$version" ] || fail "Kafka $other already runs on port $port (pid $pid): stop it first"
      say "Kafka $version already runs on 127.0.0.1:$port (pid $pid)"
      return 0
    fi
  fi
  fetch
  # Data formatted by another version: start afresh rather than up- or downgrade it.
  if [ "$fresh" = 1 ] || [ "$(cat "$run/version" 2>/dev/null)" != "$version" ]; then
    rm -rf "$run/data"
    [ -f "$log_file" ] && mv "$log_file" "$log_file.1" # the previous broker's log, kept once
  fi
  write_config
  echo "$version" >"$run/version"
  echo "=== $(date -u +%FT%TZ) kafka-local start $version on 127.0.0.1:$port" >>"$log_file"
  format_storage
  local started=$SECONDS
  java_args
  # Started from a subshell that exits at once, so the broker is not this script's child:
  # were it, a broker that died would stay a zombie that kill -0 still finds alive. In a
  # session of its own (setsid): a broker restarted by a test must outlive the test's process
  # group, which a `timeout` or a job control's cleanup signals as a whole.
  (setsid nohup "${java[@]}" kafka.Kafka "$run/server.properties" >>"$log_file" 2>&1 </dev/null & echo $! >"$pid_file")
  pid="$(cat "$pid_file")"
  if ! node --import tsx "$root/scripts/kafka/waitForBroker.ts" "127.0.0.1:$port" "$pid" "$start_timeout" \
    2>>"$log_file"; then
    log_tail
    kill "$pid" 2>/dev/null || true
    rm -f "$pid_file"
    fail "Kafka $version did not start on 127.0.0.1:$port within $start_timeout s (log: ${log_file#"$root"/})"
  fi
  say "Kafka $version runs on 127.0.0.1:$port (pid $pid, answered after $((SECONDS - started)) s)"
}

stop() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "$pid_file"
    say "not running on port $port"
    return 0
  fi
  kill "$pid"
  # A single node shuts down in a few seconds; do not wait forever on a stuck JVM.
  local waited=0
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$waited" -ge 300 ]; then
      say "still running after 30 s: killing pid $pid"
      kill -9 "$pid" 2>/dev/null || true
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  rm -f "$pid_file"
  say "stopped Kafka on port $port (pid $pid)"
}

# A crash: no orderly shutdown, so the next start recovers the logs (the fault tests).
kill_broker() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "$pid_file"
    say "not running on port $port"
    return 0
  fi
  kill -9 "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  rm -f "$pid_file"
  say "killed Kafka on port $port (pid $pid, kill -9)"
}

status() {
  local pid
  if pid="$(running_pid)"; then
    say "Kafka $(cat "$run/version" 2>/dev/null) runs on 127.0.0.1:$port (pid $pid)"
  else
    say "not running on port $port"
    exit 1
  fi
}

cd "$root"
case "${1:-}" in
  start) shift; start "$@" ;;
  stop) stop ;;
  kill) kill_broker ;;
  status) status ;;
  *) echo "usage: $0 start [--fresh] | stop | kill | status   (env: KAFKA_VERSION, KAFKA_PORT)" >&2; exit 2 ;;
esac
