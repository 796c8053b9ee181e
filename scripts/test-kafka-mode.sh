#!/usr/bin/env bash
# The service-level suites a second time with the service on a real Kafka broker and the
# embedded read store (TEST_EVENT_LOG=kafka: every service a test starts gets a topic and a
# transactional id of its own, see test/support/testEventLog.ts). `npm test` runs the same
# files on the embedded file log.
#
#   scripts/kafka-local.sh start
#   KAFKA_BROKERS=127.0.0.1:9092 scripts/test-kafka-mode.sh [more ava arguments]
#
# KAFKA_BROKERS defaults to scripts/kafka-local.sh's broker (127.0.0.1:9092). Tests whose
# title starts with "file log:" test the embedded log itself and are left out; so are whole
# files about it (README, "Kafka"). Each service on Kafka costs about 0.4 s to start and
# 1.1 s to close (its log readers wait for their consumers' fetches in flight, up to 500 ms).
set -euo pipefail
cd "$(dirname "$0")/.."

# The service-level suites issue 28 names, one place: HTTP CRUD, bulk all-or-none, the change
# log (object changes, created_by_request, its permissions), ?as_of=, SSE, revert, webhooks
# from the log (also after a kill -9), allocation races, Idempotency-Key, permissions, secrets
# kept out of the log.
files=(
  test/api/crud.e2e.spec.ts
  test/api/http.e2e.spec.ts
  test/api/writes.e2e.spec.ts
  test/api/writeResponses.e2e.spec.ts
  test/api/bulk.e2e.spec.ts
  test/api/bulkIfMatch.e2e.spec.ts
  test/audit/objectChanges.e2e.spec.ts
  test/auth/changeLogPermission.e2e.spec.ts
  test/auth/changeLogConstraints.e2e.spec.ts
  test/audit/asOf.e2e.spec.ts
  test/audit/stream.e2e.spec.ts
  test/audit/revert.e2e.spec.ts
  test/webhooks/webhooks.e2e.spec.ts
  test/webhooks/selfDelivery.e2e.spec.ts
  test/webhooks/webhookCrash.int.spec.ts
  test/api/allocation.e2e.spec.ts
  test/api/allocationRestart.e2e.spec.ts
  test/auth/permissions.e2e.spec.ts
  test/auth/secrets.e2e.spec.ts
  # every model's create, read, brief, update, bulk, permissions and delete, one named test each
  test/api/modelCrud.e2e.spec.ts
  # branches: their lifecycle and merge are events in the same log (issue 33)
  test/branches/branchLifecycle.e2e.spec.ts
)

exec env TEST_EVENT_LOG=kafka KAFKA_BROKERS="${KAFKA_BROKERS:-127.0.0.1:9092}" \
  npx ava --match '!file log:*' "${files[@]}" "$@"
