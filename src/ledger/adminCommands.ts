/**
 * The administration commands that write (a superuser, an API token), run against an
 * open ledger: by the manage CLI on a ledger of its own when no service runs, or by
 * the running service itself when the CLI asks it over the admin socket (so the CLI
 * never competes with the live writer).
 */
import { randomUUID } from 'node:crypto';

import { SecretKeeper } from '../auth/secrets.js';
import { createSuperuser as writeSuperuser } from '../auth/superuser.js';
import { createObjects } from '../commands/createObjects.js';
import type { ImageStore } from '../migration/carryFiles.js';
import { importNetbox, type ImportProgress } from '../migration/importNetbox.js';
import { httpMedia, mediaDirectory } from '../migration/mediaReaders.js';
import { SourceApi } from '../migration/SourceApi.js';
import type { Ledger } from './openLedger.js';

/** What the commands use of a ledger. */
export type AdminLedger = Pick<Ledger, 'store' | 'coordinator' | 'commands' | 'registry'>;

/** A refusal to report to the operator as it is (no stack trace), with the process exit code. */
export class AdminCommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export interface SuperuserInput {
  username: string;
  email: string;
  password: string;
  /** An API token for the user too: its key, '' for a random one, null for none. */
  token?: string | null;
}

export interface TokenInput {
  user: string;
  key?: string;
  writeEnabled: boolean;
  expires?: string;
  description?: string;
}

export async function createSuperuser(
  ledger: AdminLedger,
  input: SuperuserInput,
): Promise<{ userId: number; key: string | null }> {
  const existing = await ledger.store.find('auth.user', { username: { $eq: input.username } }, { limit: 1 });
  if (existing.length > 0) throw new AdminCommandError('Error: That username is already taken.');
  const key = input.token === undefined || input.token === null ? null : input.token || SecretKeeper.generateTokenKey();
  const userId = await writeSuperuser(ledger.coordinator, ledger.commands, {
    username: input.username,
    email: input.email,
    password: input.password,
    token: key ? { key, description: 'created by manage createsuperuser' } : null,
  });
  return { userId, key };
}

export async function createToken(ledger: AdminLedger, input: TokenInput): Promise<string> {
  const [user] = await ledger.store.find('auth.user', { username: { $eq: input.user } }, { limit: 1 });
  if (!user) throw new AdminCommandError(`Error: no user named "${input.user}".`);
  const key = input.key ?? SecretKeeper.generateTokenKey();
  await ledger.coordinator.execute(
    { requestId: randomUUID(), user: { id: user.id, username: String(user.username) } },
    async (tx) => {
      await createObjects(
        ledger.commands,
        tx,
        ledger.registry.get('users.token'),
        [
          {
            user: user.id,
            key,
            write_enabled: input.writeEnabled,
            description: input.description ?? 'created by manage create-token',
            ...(input.expires ? { expires: input.expires } : {}),
          },
        ],
        { bulk: false },
      );
    },
  );
  return key;
}

export interface ImportInput {
  /** The source's base URL and a read token for it. */
  url: string;
  token: string;
  /** Keys for the source's API tokens, by token id: the API never shows them. */
  tokenKeys?: Record<string, string>;
  /** Usernames to make superusers (the flag is not in the API). */
  superusers?: string[];
  /** Leave the source's change log behind. */
  withoutHistory?: boolean;
  /** Read the media files from this copy of NetBox's MEDIA_ROOT rather than from their URLs. */
  mediaDir?: string;
  /** Import the objects without the media files that cannot be carried, rather than refuse. */
  skipMissingMedia?: boolean;
}

/** One command as the admin socket carries it. */
export type AdminRequest =
  | { command: 'createsuperuser'; input: SuperuserInput }
  | { command: 'create-token'; input: TokenInput }
  | { command: 'import-netbox'; input: ImportInput };

/** Imports a NetBox (or netledger) into this empty one; returns the operator's summary. */
export async function importFromSource(
  ledger: AdminLedger,
  input: ImportInput,
  progress?: ImportProgress,
  /** Where this process stores media files (manage's own ledger); none over the admin socket. */
  store?: ImageStore,
): Promise<string> {
  const tokenKeys = new Map(Object.entries(input.tokenKeys ?? {}).map(([id, key]) => [Number(id), key]));
  const source = new SourceApi({ url: input.url, token: input.token });
  const { superusers, withoutHistory } = input;
  const reader = input.mediaDir ? mediaDirectory(input.mediaDir) : httpMedia(source.base, input.token);
  const media = { reader, store, skipMissing: input.skipMissingMedia };
  const summary = await importNetbox(ledger, { source, tokenKeys, progress, superusers, withoutHistory, media });
  const rate = summary.objects / Math.max(summary.readSeconds + summary.writeSeconds, 0.001);
  return (
    `Imported ${summary.objects} objects of ${Object.keys(summary.counts).length} models and ${summary.pastChanges} past changes ` +
    `(${summary.baselines} baselines) as ${summary.events} events ` +
    `(read ${summary.readSeconds.toFixed(1)} s, written ${summary.writeSeconds.toFixed(1)} s, ${Math.round(rate)} objects/s).\n` +
    `Media files carried: ${summary.files}.\n` +
    (summary.skippedFiles.length
      ? `Media files skipped (--skip-missing-media): ${summary.skippedFiles.length}, objects left out for want of theirs: ${summary.leftOut}\n` +
        summary.skippedFiles.map((f) => `  ${f}\n`).join('')
      : '') +
    (summary.notServed.length ? `Not served by the source (skipped): ${summary.notServed.join(', ')}\n` : '')
  );
}

/** The command's output lines for the operator. */
export async function runAdminCommand(ledger: AdminLedger, request: AdminRequest): Promise<string> {
  switch (request.command) {
    case 'createsuperuser': {
      const result = await createSuperuser(ledger, request.input);
      return `Superuser "${request.input.username}" created (id ${result.userId}).\n${result.key ? `API token (shown once): ${result.key}\n` : ''}`;
    }
    case 'create-token':
      return `${await createToken(ledger, request.input)}\n`;
    case 'import-netbox':
      return importFromSource(ledger, request.input);
    default:
      throw new AdminCommandError(`Error: unknown command "${(request as { command: unknown }).command}".`, 2);
  }
}
