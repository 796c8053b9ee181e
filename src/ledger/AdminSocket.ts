/**
 * The running service's door for the manage CLI's writing commands: a Unix socket in the
 * data directory (`run/admin.sock`, in a directory only the service's user may enter).
 * While the service runs, the CLI hands it the command and the live writer runs it, so a
 * second writer never competes for the log. Whoever may open the socket may already
 * write the data directory's files: it grants nothing the file system does not.
 *
 * One JSON line each way: the command, then `{ok, output}` or `{ok: false, message, exitCode}`.
 */
import { chmod, mkdir, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

import { ValidationError, WriterUnavailableError } from '../errors/requestErrors.js';
import { AdminCommandError, type AdminLedger, type AdminRequest, runAdminCommand } from './adminCommands.js';

export type AdminAnswer = { ok: true; output: string } | { ok: false; message: string; exitCode: number };

/** Longest request accepted (a command and its few options). */
const MAX_REQUEST_BYTES = 64 * 1024;
/** Unix socket paths longer than this cannot be bound (sun_path is 108 bytes on Linux). */
const MAX_SOCKET_PATH = 100;

export function adminSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'run', 'admin.sock');
}

export interface AdminSocketServer {
  readonly path: string;
  close(): Promise<void>;
}

/**
 * Listens on the data directory's admin socket (the caller holds the data directory's
 * lock, so a socket file found there is a dead service's and is replaced). Null, with a
 * warning, where the path is too long for a Unix socket: the CLI then refuses as before.
 */
export async function listenAdminSocket(
  dataDir: string,
  ledger: AdminLedger,
  logger: (entry: Record<string, unknown>) => void,
): Promise<AdminSocketServer | null> {
  const socketPath = adminSocketPath(dataDir);
  if (socketPath.length > MAX_SOCKET_PATH) {
    logger({
      level: 'warn',
      msg: `no admin socket: ${socketPath} is too long for a Unix socket; manage's writing commands need the service stopped`,
    });
    return null;
  }
  await mkdir(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  await chmod(path.dirname(socketPath), 0o700);
  await rm(socketPath, { force: true });
  const connections = new Set<net.Socket>();
  const server = net.createServer((connection) => {
    connections.add(connection);
    connection.on('close', () => connections.delete(connection));
    void serveOne(connection, ledger, logger);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => (server.off('error', reject), resolve()));
  });
  // Owner-only like every file in the data directory (its folder already keeps others out).
  await chmod(socketPath, 0o600);
  return {
    path: socketPath,
    close: async () => {
      for (const connection of connections) connection.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(socketPath, { force: true });
    },
  };
}

async function serveOne(
  connection: net.Socket,
  ledger: AdminLedger,
  logger: (entry: Record<string, unknown>) => void,
): Promise<void> {
  connection.on('error', () => undefined);
  let answer: AdminAnswer;
  try {
    const request = JSON.parse(await readLine(connection)) as AdminRequest;
    // The command's name only: its input may hold a password or a token key.
    logger({ level: 'info', msg: 'admin command from manage', command: request.command });
    answer = { ok: true, output: await runAdminCommand(ledger, request) };
  } catch (error) {
    answer = refusal(error);
  }
  connection.end(`${JSON.stringify(answer)}\n`);
}

function refusal(error: unknown): AdminAnswer {
  if (error instanceof AdminCommandError) return { ok: false, message: error.message, exitCode: error.exitCode };
  if (error instanceof ValidationError)
    return { ok: false, message: `Error: ${JSON.stringify(error.body)}`, exitCode: 1 };
  if (error instanceof WriterUnavailableError)
    return {
      ok: false,
      message: `Error: the service cannot write now (${error.message}); try again shortly.`,
      exitCode: 1,
    };
  if (error instanceof SyntaxError) return { ok: false, message: 'Error: not an admin command.', exitCode: 2 };
  return { ok: false, message: `Error: ${error instanceof Error ? error.message : String(error)}`, exitCode: 1 };
}

function readLine(connection: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const onData = (chunk: Buffer) => {
      const end = chunk.indexOf(0x0a);
      chunks.push(end < 0 ? chunk : chunk.subarray(0, end));
      bytes += chunk.length;
      if (end >= 0) return finish(null);
      if (bytes > MAX_REQUEST_BYTES) finish(new SyntaxError('request too long'));
    };
    const onEnd = () => finish(new SyntaxError('no request'));
    const finish = (error: Error | null) => {
      connection.off('data', onData);
      connection.off('end', onEnd);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    connection.on('data', onData);
    connection.on('end', onEnd);
  });
}

/** A connection to a running service's admin socket. */
export interface AdminChannel {
  send(request: AdminRequest): Promise<AdminAnswer>;
  close(): void;
}

/** Connects to the service running on the data directory, or null when none listens there. */
export function connectAdminSocket(dataDir: string): Promise<AdminChannel | null> {
  const socketPath = adminSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const connection = net.connect(socketPath);
    connection.once('error', (error: NodeJS.ErrnoException) => {
      if (['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'ENAMETOOLONG'].includes(error.code ?? '')) resolve(null);
      else reject(error);
    });
    connection.once('connect', () => {
      connection.removeAllListeners('error');
      resolve({
        send: (request) =>
          new Promise<AdminAnswer>((done, fail) => {
            connection.once('error', fail);
            readLine(connection).then((line) => done(JSON.parse(line) as AdminAnswer), fail);
            connection.write(`${JSON.stringify(request)}\n`);
          }),
        close: () => connection.destroy(),
      });
    });
  });
}
