/**
 * `npm run manage -- <command>`: administration without the HTTP API, in the spirit of
 * NetBox's manage.py. It opens the same event log and read models as the service
 * (configured by the same environment variables). createsuperuser and create-token are
 * handed to the service when it runs (src/ledger/AdminSocket.ts), else run here under the
 * data directory's lock; repair-log needs the service stopped.
 *
 *   createsuperuser   a superuser (and, with --token, an API token for it)
 *   create-token      an API token for an existing user
 *   verify-log        read the embedded event log and report every damaged frame
 *   repair-log        move a damaged log's tail (from the first damaged frame) aside
 *   rebuild           drop the read models and rebuild them from the event log
 *   export            the change history as JSON lines
 *
 * rebuild and export are the event log's own commands (src/cli/rebuild.ts,
 * src/cli/exportChanges.ts, also `npm run rebuild` / `npm run export-changes`): manage
 * runs them with the same Node.js and loader, passing every argument through.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';

import { type Config, loadConfig } from '../config.js';
import { ValidationError } from '../errors/requestErrors.js';
import { DataDirLock, DataDirLockedError } from '../events/DataDirLock.js';
import { describeScan, scanLog } from '../events/file/logScan.js';
import { repairLog } from '../events/file/repairLog.js';
import {
  AdminCommandError,
  type AdminRequest,
  importFromSource,
  type ImportInput,
  runAdminCommand,
} from '../ledger/adminCommands.js';
import { connectAdminSocket } from '../ledger/AdminSocket.js';
import { type Ledger, openLedger as openLedgerParts } from '../ledger/openLedger.js';
import { httpMedia, mediaDirectory } from '../migration/mediaReaders.js';
import { SourceApi } from '../migration/SourceApi.js';
import { comparisonTable, verified, verifyImport } from '../migration/verifyImport.js';
import { registry } from '../models/registry.js';
import { importImageStore } from './importImageStore.js';
import { importProgress } from './importProgress.js';

export const USAGE = `Usage: npm run manage -- <command> [options]

Commands:
  createsuperuser   Create a superuser.
                      --username NAME      (required)
                      --email ADDRESS
                      --password TEXT      else $NETLEDGER_PASSWORD, else asked on a terminal
                      --token [KEY]        also create an API token (40 hex characters; random if empty)
  create-token      Create an API token for an existing user; prints the key.
                      --user NAME          (required)
                      --key KEY            40 hex characters (random if omitted)
                      --read-only          the token may only read (write_enabled false)
                      --expires ISO-TIME
                      --description TEXT
  verify-log        Read the embedded event log (DATA_DIR/events.log) and report every
                    damaged frame; changes nothing, safe while the service runs. Exit
                    code 1 if the log is damaged beyond a torn tail (the service then
                    refuses to start), else 0.
  repair-log        Move everything from the first damaged frame to the end of the log
                    into a file beside it (events.log.damaged-...), so the service can
                    start with the events before the damage. Nothing is deleted. Shows
                    what it would do; --yes does it. Needs the service stopped.
  rebuild           Drop the read models and rebuild them by replaying the event log
                    (npm run rebuild; see: npm run manage -- rebuild --help).
  import-netbox     Bring a NetBox 3.x (or another netledger) in: every object under its own
                    id, in one atomic write into an EMPTY netledger (see README, "Moving from
                    NetBox"). Progress on stderr; with the service running it is handed to it.
                      --url URL            the source's base URL (required)
                      --token TOKEN        a read token for the source (required)
                      --token-keys FILE    JSON {"<token id>": "<40-hex key>"}: the source's API
                                           token keys, which its API never shows (else new keys)
                      --superusers NAMES   comma-separated usernames to make superusers (the
                                           flag is not in NetBox's API)
                      --without-history    leave the source's change log (object changes) behind
                      --media-dir DIR      read media files (image attachments, device type
                                           images) from this copy of NetBox's MEDIA_ROOT, not
                                           from their URLs with the token (also for --verify)
                      --skip-missing-media import without the media files that cannot be read
                                           or are not an image the service accepts (listed);
                                           else the import refuses, writing nothing
                      --verify             write nothing: compare every object of every endpoint
                                           between the source and the netledger at --target-url,
                                           print a table per model; exit code 1 on a difference
                      --target-url URL     the netledger to verify (default http://HOST:PORT)
                      --target-token TOKEN a read token for it (else $NETLEDGER_TOKEN)
  export            Stream the change history for audit tools, JSON lines by default
                    (npm run export-changes; --since/--until POSITION|ISO-TIME, --type,
                    --request, --format jsonl|json, --output FILE; see: export --help).

  --help            Show this help (after rebuild/export: that command's own help).

Configuration comes from the service's environment variables (DATA_DIR, KAFKA_BROKERS,
MONGODB_URL, SECRET_KEY, ...). createsuperuser and create-token write: while the service
runs on the data directory they are handed to it (its admin socket) and it runs them;
otherwise they take the data directory's lock. repair-log takes the lock and refuses to
run while the service holds it (stop the service first). verify-log, export and rebuild
only read the log and are safe while the service runs.
`;

export interface Io {
  /** May return a promise that resolves when the output can take more (backpressure). */
  out(text: string): void | Promise<void>;
  err(text: string): void;
}

const stdio: Io = {
  out: (text) => {
    if (process.stdout.write(text)) return;
    return new Promise<void>((resolve) => process.stdout.once('drain', () => resolve()));
  },
  err: (text) => {
    process.stderr.write(text);
  },
};

/** An error to report to the user (no stack trace), with the process exit code. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

/** The data directory's lock for a writing command, or a message that says to stop the service. */
async function lockDataDir(dataDir: string, command: string): Promise<DataDirLock> {
  return DataDirLock.acquire(dataDir, `manage ${command}`).catch(refuseLocked(command));
}

/** A lock held by another process (the service) becomes the message to stop it first. */
function refuseLocked(command: string) {
  return (error: unknown): never => {
    if (error instanceof DataDirLockedError)
      throw new UsageError(
        `Error: ${error.message} Stop the service first: ${command} writes to the data directory.`,
        1,
      );
    throw error;
  };
}

/** The ledger without its HTTP server and audit side, under the data directory's lock (the same wiring as the service). */
async function openLedger(config: Config, command: string): Promise<Ledger> {
  return openLedgerParts(config, { holder: `manage ${command}`, audit: false }).catch(refuseLocked(command));
}

/** DATA_DIR as the service reads it (without loadConfig, which would create a secret key). */
function dataDirOf(env: NodeJS.ProcessEnv): string {
  return path.resolve(env.DATA_DIR ?? './data');
}

function embeddedLogFile(env: NodeJS.ProcessEnv, command: string): string {
  if (env.KAFKA_BROKERS)
    throw new UsageError(
      `Error: ${command} works on the embedded file log; with KAFKA_BROKERS set the log is in Kafka.`,
    );
  return path.join(dataDirOf(env), 'events.log');
}

async function verifyLog(env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const file = embeddedLogFile(env, 'verify-log');
  if (!existsSync(file)) {
    await io.out(`${file}: no event log (nothing was ever written).\n`);
    return 0;
  }
  const scan = await scanLog(file);
  await io.out(describeScan(scan));
  if (scan.firstDamage && scan.firstDamage.end === scan.size) {
    const holder = await DataDirLock.holder(dataDirOf(env));
    if (holder)
      await io.out(
        'Note: a service is running on this data directory: damage at the very end may be a write in progress.\n',
      );
  }
  return scan.verdict === 'corrupt' ? 1 : 0;
}

async function repairLogCommand(env: NodeJS.ProcessEnv, confirmed: boolean, io: Io): Promise<number> {
  const file = embeddedLogFile(env, 'repair-log');
  if (!existsSync(file)) {
    await io.out(`${file}: no event log, nothing to repair.\n`);
    return 0;
  }
  const lock = await lockDataDir(dataDirOf(env), 'repair-log');
  try {
    const scan = await scanLog(file);
    if (!scan.firstDamage) {
      await io.out(`${file}: no damage, nothing to repair (${scan.head} events).\n`);
      return 0;
    }
    await io.out(describeScan(scan));
    const from = scan.firstDamage.offset;
    if (!confirmed) {
      await io.out(
        `Nothing changed. Run 'npm run manage -- repair-log --yes' to move bytes ${from}..${scan.size} into a file beside the log.\n`,
      );
      return 1;
    }
    const { scan: repaired, kept } = await repairLog(file);
    if (!kept) {
      await io.out('Nothing to move.\n');
      return 0;
    }
    const entry = {
      time: new Date().toISOString(),
      level: 'warn',
      msg: `event log repaired: moved bytes ${kept.offset}..${kept.offset + kept.bytes} (${kept.bytes} bytes) into ${kept.file}; the log now ends at position ${repaired.head}`,
      file,
      offset: kept.offset,
      bytes: kept.bytes,
      position: repaired.head + 1,
      keptIn: kept.file,
    };
    io.err(JSON.stringify(entry) + '\n');
    await io.out(
      `Moved bytes ${kept.offset}..${kept.offset + kept.bytes} (${kept.bytes} bytes) of ${file} into ${kept.file}.\n` +
        `The log now holds positions 1..${repaired.head}; the service can start. Keep the side file: it is the only copy of those bytes.\n`,
    );
    return 0;
  } finally {
    await lock.release();
  }
}

function describe(error: unknown): string {
  if (error instanceof ValidationError) return JSON.stringify(error.body);
  return error instanceof Error ? error.message : String(error);
}

async function askHidden(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const output = rl as unknown as { _writeToOutput(text: string): void };
  let prompted = false;
  output._writeToOutput = (text: string) => {
    if (!prompted) {
      process.stderr.write(text);
      prompted = true;
    }
  };
  try {
    return await new Promise<string>((resolve) => rl.question(question, resolve));
  } finally {
    process.stderr.write('\n');
    rl.close();
  }
}

async function passwordFrom(values: Record<string, unknown>, env: NodeJS.ProcessEnv): Promise<string> {
  if (typeof values.password === 'string') return values.password;
  if (env.NETLEDGER_PASSWORD) return env.NETLEDGER_PASSWORD;
  if (process.stdin.isTTY) {
    const first = await askHidden('Password: ');
    const again = await askHidden('Password (again): ');
    if (first !== again) throw new UsageError("Error: Your passwords didn't match.", 1);
    return first;
  }
  throw new UsageError('Error: give --password or set NETLEDGER_PASSWORD (no terminal to ask on).');
}

/**
 * A writing command: handed to the service when one runs on the data directory (its
 * live writer runs it), else run on a ledger of this process's own, under the lock.
 * The command is built only once it is known where it goes, and before the ledger opens
 * (a password is asked for after a refusal would have been shown, never before).
 */
async function runWriting(
  name: AdminRequest['command'],
  env: NodeJS.ProcessEnv,
  io: Io,
  build: () => Promise<AdminRequest>,
  /** Runs the command on this process's own ledger, where it can do more than over the socket (show progress). */
  local: (ledger: Ledger, request: AdminRequest) => Promise<string> = runAdminCommand,
): Promise<number> {
  const channel = await connectAdminSocket(dataDirOf(env));
  if (channel) {
    try {
      const answer = await channel.send(await build());
      if (!answer.ok) throw new AdminCommandError(answer.message, answer.exitCode);
      await io.out(answer.output);
      return 0;
    } finally {
      channel.close();
    }
  }
  const ledger = await openLedger(loadConfig(env), name);
  try {
    await io.out(await local(ledger, await build()));
    return 0;
  } finally {
    await ledger.close();
  }
}

function listOf(value: unknown): string[] {
  return typeof value === 'string'
    ? value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
    : [];
}

async function importNetboxCommand(values: Record<string, unknown>, env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const url = typeof values.url === 'string' ? values.url : '';
  const token = typeof values.token === 'string' ? values.token : '';
  if (!url || !token) throw new UsageError('Error: --url and --token are required.');
  if (values.verify) {
    // HOST and PORT as the service reads them (without loadConfig, which would create a secret key).
    const host = !env.HOST || env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST;
    const targetUrl =
      typeof values['target-url'] === 'string' ? values['target-url'] : `http://${host}:${env.PORT || '8000'}`;
    const targetToken = typeof values['target-token'] === 'string' ? values['target-token'] : env.NETLEDGER_TOKEN;
    if (!targetToken)
      throw new UsageError(
        'Error: --verify needs --target-token (or $NETLEDGER_TOKEN): a read token for the netledger.',
      );
    const source = new SourceApi({ url, token });
    const target = new SourceApi({ url: targetUrl, token: targetToken });
    const results = await verifyImport(source, target, registry, {
      source:
        typeof values['media-dir'] === 'string' ? mediaDirectory(values['media-dir']) : httpMedia(source.base, token),
      target: httpMedia(target.base, targetToken),
    });
    await io.out(comparisonTable(results));
    const ok = verified(results);
    await io.out(ok ? 'Every object is equal.\n' : 'Differences found.\n');
    return ok ? 0 : 1;
  }
  const keysFile = values['token-keys'];
  const tokenKeys =
    typeof keysFile === 'string' ? (JSON.parse(readFileSync(keysFile, 'utf8')) as Record<string, string>) : undefined;
  return runWriting(
    'import-netbox',
    env,
    io,
    async () => {
      const input = {
        url,
        token,
        tokenKeys,
        superusers: listOf(values.superusers),
        withoutHistory: values['without-history'] === true,
        mediaDir: typeof values['media-dir'] === 'string' ? path.resolve(values['media-dir']) : undefined,
        skipMissingMedia: values['skip-missing-media'] === true,
      };
      return { command: 'import-netbox', input };
    },
    (ledger, request) =>
      importFromSource(
        ledger,
        request.input as ImportInput,
        importProgress(),
        importImageStore(ledger, (entry) => io.err(`${String(entry.msg)}\n`)),
      ),
  );
}

const CLI_DIR = path.dirname(fileURLToPath(import.meta.url));
const PROJECT_DIR = path.resolve(CLI_DIR, '..', '..');

/** The commands manage hands over to another CLI of the project. */
const DELEGATED: Record<string, string> = { rebuild: 'rebuild.ts', export: 'exportChanges.ts' };

/**
 * Run another CLI of the project with the same Node.js and loader, its output passed on
 * through `io` (with backpressure); resolves to its exit code.
 */
function delegate(script: string, args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: PROJECT_DIR,
      env,
      stdio: ['inherit', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => {
      const pending = io.out(chunk.toString('utf8'));
      if (pending) {
        child.stdout.pause();
        void pending.then(() => child.stdout.resume());
      }
    });
    child.stderr.on('data', (chunk: Buffer) => io.err(chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const OPTIONS: ParseArgsConfig['options'] = {
  help: { type: 'boolean', short: 'h' },
  username: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  token: { type: 'string' },
  user: { type: 'string' },
  key: { type: 'string' },
  'read-only': { type: 'boolean' },
  expires: { type: 'string' },
  description: { type: 'string' },
  yes: { type: 'boolean' },
  url: { type: 'string' },
  'token-keys': { type: 'string' },
  verify: { type: 'boolean' },
  'target-url': { type: 'string' },
  'target-token': { type: 'string' },
  superusers: { type: 'string' },
  'without-history': { type: 'boolean' },
  'media-dir': { type: 'string' },
  'skip-missing-media': { type: 'boolean' },
};

/** Runs one command; returns the process exit code. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, io: Io = stdio): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    await io.out(USAGE);
    return command ? 0 : 2;
  }
  if (Object.hasOwn(DELEGATED, command)) {
    const script = path.join(CLI_DIR, DELEGATED[command]);
    if (!existsSync(script)) {
      io.err(`The ${command} command is not available in this build (${script} is missing).\n`);
      return 1;
    }
    return delegate(script, rest, env, io);
  }
  // `--token` may be given without a value (a random key).
  const args = rest.map((a, i) =>
    a === '--token' && (rest[i + 1] === undefined || rest[i + 1].startsWith('--')) ? '--token=' : a,
  );
  let values: Record<string, unknown>;
  try {
    values = parseArgs({ args, options: OPTIONS, allowPositionals: false, strict: true }).values;
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    await io.out(USAGE);
    return 0;
  }
  try {
    switch (command) {
      case 'createsuperuser': {
        if (typeof values.username !== 'string' || values.username === '')
          throw new UsageError('Error: --username is required.');
        const username = values.username;
        return await runWriting('createsuperuser', env, io, async () => ({
          command: 'createsuperuser',
          input: {
            username,
            email: typeof values.email === 'string' ? values.email : '',
            password: await passwordFrom(values, env),
            token: typeof values.token === 'string' ? values.token : null,
          },
        }));
      }
      case 'create-token': {
        if (typeof values.user !== 'string' || values.user === '') throw new UsageError('Error: --user is required.');
        const user = values.user;
        return await runWriting('create-token', env, io, async () => ({
          command: 'create-token',
          input: {
            user,
            key: typeof values.key === 'string' ? values.key : undefined,
            writeEnabled: values['read-only'] !== true,
            expires: typeof values.expires === 'string' ? values.expires : undefined,
            description: typeof values.description === 'string' ? values.description : undefined,
          },
        }));
      }
      case 'import-netbox':
        return await importNetboxCommand(values, env, io);
      case 'verify-log':
        return await verifyLog(env, io);
      case 'repair-log':
        return await repairLogCommand(env, values.yes === true, io);
      default:
        io.err(`Unknown command "${command}".\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof AdminCommandError) {
      io.err(`${error.message}\n`);
      return error.exitCode;
    }
    io.err(`Error: ${describe(error)}\n`);
    return 1;
  }
}

const isEntryPoint = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isEntryPoint) {
  // A closed pipe (e.g. `export | head`) ends the output quietly.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  process.exitCode = await main(process.argv.slice(2));
}
