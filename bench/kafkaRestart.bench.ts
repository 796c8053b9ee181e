/**
 * The service's restart at scale on a real Kafka broker, with and without snapshots, beside
 * the embedded file log's. Not a test: run with
 *   KAFKA_BROKERS=127.0.0.1:9392 npx tsx bench/kafkaRestart.bench.ts
 *
 * Writes the same generated history (bench/siteHistory.ts: sites created then updated,
 * requests of 1-5 events) of EVENTS events (default 1,000,000) into a file log and into a
 * fresh topic, then starts the whole service (`start()` of src/main.ts, until it answers a
 * list) in a fresh child process for each of:
 *   1. no snapshots (SNAPSHOT_EVERY_EVENTS=0): every subscriber replays the log from position 1;
 *   2. a start that writes snapshots (audit index every SNAPSHOT_EVERY events during its
 *      catch-up, read models at its clean stop), not timed as a restart;
 *   3. the restart from those snapshots: the read models and audit index load theirs, each
 *      subscriber reads the log after them (on Kafka, from the cursor kept beside them).
 * Figures: wall and CPU time to a served list, RSS, and on Kafka the messages each kind of
 * read fetched by then (`messagesFetched()`: a restart that scanned from offset 0 fetches
 * the whole topic in `subscribe` or `positions`) and once the background locating ends.
 * Env: EVENTS, OBJECTS (100,000), SNAPSHOT_EVERY (100,000), KEEP=1 keeps the temp dirs.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { loadConfig } from '../src/config.js';
import { KafkaEventLog } from '../src/events/kafka/KafkaEventLog.js';
import { siteHistory, writeSiteHistoryLog } from './siteHistory.js';

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const OBJECTS = Number(process.env.OBJECTS ?? 100_000);
const SNAPSHOT_EVERY = process.env.SNAPSHOT_EVERY ?? '100000';
const BROKERS = process.env.KAFKA_BROKERS ?? '';
const TOKEN = '0123456789abcdef0123456789abcdef01234567';
const RESULT = 'RESTART-RESULT ';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const sec = (ms: number) => (ms / 1000).toFixed(1);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const history = () => siteHistory({ events: EVENTS, objects: OBJECTS, requestSize: (p) => 1 + (p % 5) });

interface FetchCounting {
  messagesFetched(): Readonly<Record<string, number>>;
}

/** One start of the whole service in this (child) process, until it answers a list; then a clean stop. */
async function serviceChild(env: Record<string, string>): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const { start } = await import('../src/main.js');
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    SUPERUSER_NAME: 'admin',
    SUPERUSER_API_TOKEN: TOKEN,
    SECRET_KEY: 'bench-secret-key',
    ...env,
  });
  const running = await start(config, () => {});
  const response = await fetch(`${running.url}/api/dcim/sites/?limit=5`, {
    headers: { Authorization: `Token ${TOKEN}`, Accept: 'application/json' },
  });
  const sites = ((await response.json()) as { count: number }).count;
  const listMs = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const log = running.services.log as Partial<FetchCounting>;
  const fetchedAtList = log.messagesFetched?.() ?? null;
  // What the background locating of skipped events fetches (not waited for by the start).
  const located = performance.now();
  await running.services.log.readPositions([1]);
  const result = {
    listMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    sites,
    head: running.services.log.head(),
    readModelsFrom: running.services.projector.startPosition - running.services.projector.appliedEvents,
    replayed: running.services.projector.appliedEvents,
    auditFrom: running.services.audit?.loadedFrom ?? 0,
    fetchedAtList,
    firstOldReadMs: performance.now() - located,
    fetchedAfter: log.messagesFetched?.() ?? null,
    rss: process.memoryUsage().rss,
    maxRss: process.resourceUsage().maxRSS * 1024,
  };
  const stopped = performance.now();
  await running.stop();
  return { ...result, stopMs: performance.now() - stopped };
}

function runChild(env: Record<string, string>): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      env: { ...process.env, RESTART_CHILD: JSON.stringify(env) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith(RESULT));
      if (code !== 0 || !line) reject(new Error(`child exited with ${code}: ${out.slice(-2000)}`));
      else resolve(JSON.parse(line.slice(RESULT.length)));
    });
  });
}

/** The generated history appended to a fresh topic, 2,000 appends in flight (group commit makes the transactions). */
async function writeTopic(topic: string, transactionalId: string): Promise<void> {
  const log = new KafkaEventLog({
    brokers: BROKERS.split(','),
    topic,
    transactionalId,
    replicationFactor: 1,
    logLevel: 'error',
  });
  await log.open();
  let pending: Promise<void>[] = [];
  for (const batch of history()) {
    pending.push(log.append(batch));
    if (pending.length >= 2000) {
      await Promise.all(pending);
      pending = [];
    }
  }
  await Promise.all(pending);
  await log.close();
}

function print(label: string, r: any): void {
  const fetched = (f: Record<string, number> | null) =>
    f
      ? Object.entries(f)
          .map(([k, v]) => `${k} ${fmt(v)}`)
          .join(', ')
      : '';
  console.log(
    `${label.padEnd(34)} list after ${sec(r.listMs)} s, CPU ${sec(r.cpuMs)} s, ` +
      `RSS ${mib(r.rss)} MiB (peak ${mib(r.maxRss)}); ${fmt(r.sites)} sites, head ${fmt(r.head)}, ` +
      `read models replayed ${fmt(r.replayed)}, audit from ${fmt(r.auditFrom)}` +
      (r.fetchedAtList
        ? `\n${''.padEnd(34)} fetched by the list: ${fetched(r.fetchedAtList)}; ` +
          `first read of position 1 after ${sec(r.firstOldReadMs)} s, fetched by then: ${fetched(r.fetchedAfter)}`
        : `; first read of position 1 after ${sec(r.firstOldReadMs)} s`),
  );
}

async function main(): Promise<void> {
  if (!BROKERS) throw new Error('KAFKA_BROKERS is not set (e.g. KAFKA_PORT=9392 scripts/kafka-local.sh start)');
  const fileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'netledger-restart-bench-file-'));
  const kafkaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'netledger-restart-bench-kafka-'));
  const coldDir = fs.mkdtempSync(path.join(os.tmpdir(), 'netledger-restart-bench-kafka-cold-'));
  const topic = `netledger.bench.${randomUUID()}`;
  const transactionalId = `netledger-bench-${randomUUID()}`;
  console.log(
    `restart bench: ${fmt(EVENTS)} events over ${fmt(OBJECTS)} sites; ${os.cpus().length} CPUs, ` +
      `load ${os.loadavg()[0]!.toFixed(1)}; topic ${topic}`,
  );
  try {
    let t0 = performance.now();
    await writeSiteHistoryLog(fileDir, { events: EVENTS, objects: OBJECTS, requestSize: (p) => 1 + (p % 5) });
    const logBytes = fs.statSync(path.join(fileDir, 'events.log')).size;
    console.log(`file log written in ${sec(performance.now() - t0)} s (${mib(logBytes)} MiB)`);
    t0 = performance.now();
    await writeTopic(topic, transactionalId);
    console.log(`topic written in ${sec(performance.now() - t0)} s`);

    const kafka = {
      KAFKA_BROKERS: BROKERS,
      KAFKA_TOPIC: topic,
      KAFKA_TRANSACTIONAL_ID: transactionalId,
      KAFKA_REPLICATION_FACTOR: '1',
    };
    const runs: Array<[string, Record<string, string>]> = [
      ['file log, no snapshots', { DATA_DIR: fileDir, SNAPSHOT_EVERY_EVENTS: '0' }],
      ['file log, writing snapshots', { DATA_DIR: fileDir, SNAPSHOT_EVERY_EVENTS: SNAPSHOT_EVERY }],
      ['file log, from snapshots', { DATA_DIR: fileDir, SNAPSHOT_EVERY_EVENTS: SNAPSHOT_EVERY }],
      ['Kafka, no snapshots', { ...kafka, DATA_DIR: coldDir, SNAPSHOT_EVERY_EVENTS: '0' }],
      ['Kafka, writing snapshots', { ...kafka, DATA_DIR: kafkaDir, SNAPSHOT_EVERY_EVENTS: SNAPSHOT_EVERY }],
      ['Kafka, from snapshots', { ...kafka, DATA_DIR: kafkaDir, SNAPSHOT_EVERY_EVENTS: SNAPSHOT_EVERY }],
    ];
    for (const [label, env] of runs) print(label, await runChild(env));
  } finally {
    if (!process.env.KEEP) {
      for (const dir of [fileDir, kafkaDir, coldDir]) fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

const childEnv = process.env.RESTART_CHILD;
if (childEnv) {
  const result = await serviceChild(JSON.parse(childEnv) as Record<string, string>);
  process.stdout.write(`${RESULT}${JSON.stringify(result)}\n`);
  process.exit(0);
} else {
  await main();
}
