/**
 * `npm run export-changes`: streams the change history from the event log for audit
 * tools, one object change per line (JSON Lines) or as one JSON array.
 *
 *   npm run export-changes -- --since 2024-01-01T00:00:00Z --format jsonl > changes.jsonl
 *   npm run export-changes -- --since 1500 --until 2000 --type dcim.site
 *   npm run export-changes -- --request 0b7cf0b0-9446-4396-a6a8-2957f7b5b1c1 --format json
 *
 * --since / --until take a log position (inclusive) or an ISO 8601 time (inclusive);
 * --type (repeatable) an object type '<app>.<model>'; --request (repeatable) a request id;
 * --output a file instead of stdout. Records have the object-change fields the API
 * renders, without nested objects: id (the log position), time, user_id, user_name,
 * request_id, action, changed_object_type, changed_object_id, related_object_type,
 * related_object_id, object_repr, prechange_data, postchange_data (internal and secret
 * fields removed; related objects and tags as ids) and revert_of.
 *
 * Reads the log read-only (openLogReader in src/ledger/openLedger.ts): safe while the service runs.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';

import { canonicalUuid } from '../audit/changeQuery.js';
import { publicSnapshot } from '../audit/renderChanges.js';
import { eventTimeMicros, parseTimeMicros } from '../audit/time.js';
import { loadConfig } from '../config.js';
import type { ChangeEvent } from '../events/ChangeEvent.js';
import { openLogReader } from '../ledger/openLedger.js';
import { type ModelRegistry, registry as defaultRegistry } from '../models/registry.js';
import { formatCount, ProgressBar } from './progress.js';

type Bound = { position: number } | { micros: number };

export interface ExportOptions {
  since?: Bound;
  until?: Bound;
  types?: string[];
  requests?: string[];
  format: 'jsonl' | 'json';
}

export class UsageError extends Error {}

/** Parses the command line (everything after `--`). */
export function parseExportArguments(argv: string[]): ExportOptions & { output?: string; help?: boolean } {
  const options: ExportOptions & { output?: string; help?: boolean } = { format: 'jsonl' };
  const bound = (name: string, value: string | undefined): Bound => {
    if (value === undefined) throw new UsageError(`${name} needs a value`);
    if (/^\d+$/.test(value)) return { position: Number(value) };
    const micros = parseTimeMicros(value);
    if (micros === null) throw new UsageError(`${name}: not a log position or an ISO 8601 time: ${value}`);
    return { micros };
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--since':
        options.since = bound('--since', value());
        break;
      case '--until':
        options.until = bound('--until', value());
        break;
      case '--type': {
        const type = value();
        if (!type || !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(type))
          throw new UsageError(`--type: expected '<app>.<model>', got ${type}`);
        (options.types ??= []).push(type);
        break;
      }
      case '--request': {
        const id = canonicalUuid(value() ?? '');
        if (!id) throw new UsageError('--request: not a UUID');
        (options.requests ??= []).push(id);
        break;
      }
      case '--format': {
        const format = value();
        if (format !== 'jsonl' && format !== 'json') throw new UsageError(`--format: jsonl or json, not ${format}`);
        options.format = format;
        break;
      }
      case '--output':
      case '-o':
        options.output = value();
        if (!options.output) throw new UsageError('--output needs a file name');
        break;
      case '--help':
      case '-h':
        options.help = true;
        break;
      default:
        throw new UsageError(`unknown argument ${arg}`);
    }
  }
  return options;
}

function within(event: ChangeEvent, since: Bound | undefined, until: Bound | undefined): boolean {
  if (since) {
    if ('position' in since ? event.position < since.position : eventTimeMicros(event.time) < since.micros)
      return false;
  }
  if (until) {
    if ('position' in until ? event.position > until.position : eventTimeMicros(event.time) > until.micros)
      return false;
  }
  return true;
}

/** One exported record: the object change without nested objects, secrets removed. */
export function exportRecord(event: ChangeEvent, registry: ModelRegistry = defaultRegistry): Record<string, unknown> {
  const definition = registry.tryGet(event.objectType);
  return {
    id: event.position,
    time: event.time,
    user_id: event.user?.id ?? null,
    user_name: event.user?.username ?? '',
    request_id: event.requestId,
    action: event.action,
    changed_object_type: event.objectType,
    changed_object_id: event.objectId,
    related_object_type: event.related?.type ?? null,
    related_object_id: event.related?.id ?? null,
    object_repr: event.objectRepr,
    prechange_data: publicSnapshot(definition, event.prechange),
    postchange_data: publicSnapshot(definition, event.postchange),
    revert_of: event.revertOf ?? null,
  };
}

/**
 * Writes the selected changes of `batches` to `out`, honouring back-pressure. Returns
 * the number of records written. Stops reading once past `--until` (the log is ordered
 * by position, and by time as long as the clock did not go backwards).
 */
export async function exportChanges(
  batches: AsyncIterable<readonly ChangeEvent[]>,
  out: Writable,
  options: ExportOptions,
  registry: ModelRegistry = defaultRegistry,
): Promise<number> {
  const types = options.types ? new Set(options.types) : null;
  const requests = options.requests ? new Set(options.requests) : null;
  let written = 0;
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  if (options.format === 'json') await write('[');
  for await (const batch of batches) {
    let chunk = '';
    for (const event of batch) {
      if (!within(event, options.since, options.until)) continue;
      if (types && !types.has(event.objectType)) continue;
      if (requests && !requests.has(event.requestId.toLowerCase())) continue;
      const json = JSON.stringify(exportRecord(event, registry));
      chunk += options.format === 'json' ? `${written === 0 ? '\n' : ',\n'}${json}` : `${json}\n`;
      written++;
    }
    if (chunk) await write(chunk);
    const until = options.until;
    if (until && 'position' in until && batch.length > 0 && batch[batch.length - 1]!.position >= until.position) break;
  }
  if (options.format === 'json') await write(written === 0 ? ']\n' : '\n]\n');
  return written;
}

async function main(argv: string[]): Promise<number> {
  let options;
  try {
    options = parseExportArguments(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`export-changes: ${error.message} (try --help)\n`);
      return 2;
    }
    throw error;
  }
  if (options.help) {
    process.stdout.write(
      'usage: npm run export-changes -- [--since <position|ISO time>] [--until <position|ISO time>]\n' +
        '         [--type <app.model>]... [--request <uuid>]... [--format jsonl|json] [--output <file>]\n',
    );
    return 0;
  }
  const config = loadConfig();
  const source = await openLogReader(config); // read-only: no lock, so it runs next to the service
  const out: Writable = options.output ? createWriteStream(options.output) : process.stdout;
  const bar = new ProgressBar('export-changes');
  try {
    async function* withProgress() {
      for await (const batch of source.read()) {
        yield batch;
        bar.update(source.progress(), `position ${formatCount(batch[batch.length - 1]!.position)}`);
      }
    }
    const count = await exportChanges(withProgress(), out, options);
    bar.done(`${formatCount(count)} changes exported from ${source.description}`);
  } finally {
    await source.close();
    if (options.output) {
      out.end();
      await once(out, 'finish');
    }
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`export-changes failed: ${(error as Error)?.message ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
