/**
 * A real Kafka protocol peer for tests: librdkafka's mock cluster, run by
 * kafka-mock/mock-broker.c (compiled on first use, cached by the source's hash). Each call
 * starts a cluster of its own on loopback ports; `command()` drives it (brokers down/up,
 * request errors, coordinators, topics; see the C file for the commands).
 *
 * Needs gcc and librdkafka's development files (Debian: librdkafka-dev). Without them
 * `startKafkaMock` resolves `{ skipped: why }` so a test file can skip with that reason.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SOURCE = fileURLToPath(new URL('./kafka-mock/mock-broker.c', import.meta.url));

export interface KafkaMock {
  /** The bootstrap brokers, "host:port" each; broker ids are 1..n in this order. */
  brokers: string[];
  /** Sends one command line; resolves once the cluster applied it, rejects with its error. */
  command(line: string): Promise<void>;
  /** Ends the cluster (idempotent). */
  stop(): Promise<void>;
}

let building: Promise<{ binary: string } | { skipped: string }> | undefined;

/** The compiled program, built once per source version; `skipped` says why it cannot be. */
export function kafkaMockBinary(): Promise<{ binary: string } | { skipped: string }> {
  building ??= build();
  return building;
}

async function build(): Promise<{ binary: string } | { skipped: string }> {
  const source = await readFile(SOURCE);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), 'netledger-kafka-mock');
  const binary = join(dir, `mock-broker-${hash}`);
  if (existsSync(binary)) return { binary };
  await mkdir(dir, { recursive: true });
  const flags = await run('pkg-config', ['--cflags', '--libs', 'rdkafka']).then(
    ({ stdout }) => stdout.trim().split(/\s+/).filter(Boolean),
    () => ['-lrdkafka'],
  );
  // Another test process may be compiling too: each writes its own file, the rename is atomic.
  const partial = `${binary}.${process.pid}.partial`;
  try {
    await run('gcc', ['-O1', '-o', partial, SOURCE, ...flags]);
  } catch (error) {
    const { code, stderr } = error as { code?: string; stderr?: string };
    if (code === 'ENOENT') return { skipped: 'gcc is not installed' };
    if (/rdkafka(_mock)?\.h|lrdkafka/.test(stderr ?? ''))
      return { skipped: 'librdkafka development files are missing (apt-get install librdkafka-dev)' };
    return { skipped: `mock-broker.c does not compile: ${(stderr ?? String(error)).trim()}` };
  }
  await rename(partial, binary);
  return { binary };
}

/**
 * The mock cluster names broker 0 as its controller in every Metadata response, but its
 * brokers are numbered from 1, and kafkajs fails any request it sends to the controller
 * (an idempotent producer's connect, the admin's topic and config requests) with "Broker 0
 * not found". A real cluster names one of its brokers (or -1 while it elects one), so in
 * this process only, metadata naming an absent controller is read as naming the first
 * broker. librdkafka's own client does not notice: it never sends to the controller here.
 */
let controllerShimmed = false;
function shimAbsentController(): void {
  if (controllerShimmed) return;
  controllerShimmed = true;
  const { prototype } = createRequire(import.meta.url)('kafkajs/src/cluster/brokerPool.js') as { prototype: object };
  const stored = Symbol('metadata');
  type Metadata = { controllerId?: number; brokers?: Array<{ nodeId: number }> } | null;
  Object.defineProperty(prototype, 'metadata', {
    configurable: true,
    get(this: Record<symbol, Metadata>) {
      return this[stored] ?? null;
    },
    set(this: Record<symbol, Metadata>, metadata: Metadata) {
      const brokers = metadata?.brokers ?? [];
      const absent =
        metadata?.controllerId !== undefined &&
        metadata.controllerId >= 0 &&
        !brokers.some((b) => b.nodeId === metadata.controllerId);
      this[stored] = absent && brokers.length > 0 ? { ...metadata, controllerId: brokers[0]!.nodeId } : metadata;
    },
  });
}

/** Starts a mock cluster of `brokerCount` brokers, or says why it cannot. */
export async function startKafkaMock(brokerCount = 1): Promise<KafkaMock | { skipped: string }> {
  const built = await kafkaMockBinary();
  if ('skipped' in built) return built;
  shimAbsentController();
  const child = spawn(built.binary, [String(brokerCount)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const replies: Array<(line: string) => void> = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let ended = false;
  void exited.then(() => {
    ended = true;
    for (const reply of replies.splice(0)) reply(`error the mock cluster exited ${stderr.trim()}`);
  });
  lines.on('line', (line) => replies.shift()?.(line));

  const first = await new Promise<string>((resolve) => replies.push(resolve));
  if (first.startsWith('error')) throw new Error(`kafka mock did not start: ${first}`);
  return {
    brokers: first.split(','),
    command: (line) => command(child, replies, () => ended, line),
    stop: async () => {
      if (!ended) child.stdin.end('quit\n');
      // Destroying the cluster closes its sockets at once; a hang would be a bug, not a wait.
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(kill);
    },
  };
}

async function command(
  child: ChildProcessWithoutNullStreams,
  replies: Array<(line: string) => void>,
  ended: () => boolean,
  line: string,
): Promise<void> {
  if (ended()) throw new Error(`kafka mock: ${line}: the cluster has stopped`);
  const reply = new Promise<string>((resolve) => replies.push(resolve));
  child.stdin.write(`${line.trim()}\n`);
  const answer = await reply;
  if (answer !== 'ok') throw new Error(`kafka mock: ${line}: ${answer.replace(/^error /, '')}`);
}
