/**
 * Running a playbook with Ansible (Debian's `ansible`, its netbox.netbox collection and
 * python3-pynetbox, or ANSIBLE_PLAYBOOK) against a test service, the way network teams
 * drive NetBox: a localhost inventory, `connection: local`, the modules run by
 * /usr/bin/python3 (where pynetbox is installed; an interpreter found first on PATH may
 * lack it). The play gets the service URL and the admin token as the variables
 * `netbox_url` and `netbox_token`. Results come from Ansible's `json` stdout callback,
 * so tests can assert each task's `changed`/`failed` and the PLAY RECAP counts.
 * Ansible's home and temporary files live in a directory removed afterwards; nothing
 * leaves the machine (the service listens on 127.0.0.1, proxies are bypassed).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ADMIN_TOKEN, type TestService } from './startService.js';

export const ANSIBLE_PLAYBOOK = process.env.ANSIBLE_PLAYBOOK ?? '/usr/bin/ansible-playbook';
const ANSIBLE_GALAXY = path.join(path.dirname(ANSIBLE_PLAYBOOK), 'ansible-galaxy');
export const MODULE_PYTHON = process.env.ANSIBLE_MODULE_PYTHON ?? '/usr/bin/python3';
const COLLECTION = 'netbox.netbox';

/** One task's outcome on localhost, as the json callback reports it. */
export interface TaskResult {
  name: string;
  changed: boolean;
  failed: boolean;
  skipped: boolean;
  msg: string | undefined;
  /** Everything the module (or action) returned. */
  result: Record<string, any>;
}

/** The PLAY RECAP line for localhost. */
export interface Recap {
  ok: number;
  changed: number;
  failures: number;
  unreachable: number;
  skipped: number;
  rescued: number;
  ignored: number;
}

export interface PlaybookRun {
  /** ansible-playbook's exit status (0: every task ok; 2: a task failed). */
  code: number | null;
  tasks: TaskResult[];
  recap: Recap;
  stderr: string;
}

export interface PlaybookOptions {
  /** More play variables (passed as extra vars, beside netbox_url and netbox_token). */
  vars?: Record<string, unknown>;
  /** Tags whose tasks are left out (--skip-tags). */
  skipTags?: string[];
}

/**
 * A scratch directory for Ansible's home, temporary files and the run's inventory and
 * variables, and the environment that keeps Ansible there: no user configuration, no
 * proxy, a UTF-8 locale (ansible-core refuses to start without one).
 */
export function scratchEnvironment(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-ansible-'));
  // An empty configuration of our own, so no system or user ansible.cfg applies.
  writeFileSync(path.join(dir, 'ansible.cfg'), '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    LC_ALL: 'C.UTF-8',
    LANG: 'C.UTF-8',
    NO_PROXY: '*',
    no_proxy: '*',
    ANSIBLE_HOME: path.join(dir, 'home'),
    ANSIBLE_LOCAL_TEMP: path.join(dir, 'tmp'),
    ANSIBLE_REMOTE_TEMP: path.join(dir, 'remote-tmp'),
    ANSIBLE_CONFIG: path.join(dir, 'ansible.cfg'),
    ANSIBLE_STDOUT_CALLBACK: 'json',
    ANSIBLE_LOAD_CALLBACK_PLUGINS: '1',
    ANSIBLE_NOCOLOR: '1',
    ANSIBLE_RETRY_FILES_ENABLED: '0',
    ANSIBLE_GATHERING: 'explicit',
    ANSIBLE_PIPELINING: '1',
    ANSIBLE_DEPRECATION_WARNINGS: '0',
    ANSIBLE_LOCALHOST_WARNING: '0',
    ANSIBLE_INVENTORY_UNPARSED_WARNING: '0',
  };
  return { dir, env };
}

/** The netbox.netbox collection's version as Ansible sees it, or null where Ansible or the collection is missing. */
export function netboxCollectionVersion(): string | null {
  const { dir, env } = scratchEnvironment();
  try {
    const probe = spawnSync(ANSIBLE_GALAXY, ['collection', 'list', COLLECTION, '--format', 'json'], {
      encoding: 'utf8',
      env,
    });
    if (probe.status !== 0) return null;
    const byPath = JSON.parse(probe.stdout) as Record<string, Record<string, { version: string }>>;
    for (const collections of Object.values(byPath)) {
      if (collections[COLLECTION]) return collections[COLLECTION].version;
    }
    return null;
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether the interpreter the modules run under can import pynetbox. */
function modulePythonHasPynetbox(): boolean {
  return spawnSync(MODULE_PYTHON, ['-c', 'import pynetbox'], { stdio: 'ignore' }).status === 0;
}

/** Why the Ansible tests cannot run here, or null when they can (with the collection's version). */
export function ansibleAvailability(): { version: string; skipReason: null } | { version: null; skipReason: string } {
  const version = netboxCollectionVersion();
  if (version === null) {
    return {
      version: null,
      skipReason: `${ANSIBLE_PLAYBOOK} or the ${COLLECTION} collection is missing; apt-get install -y ansible python3-pynetbox`,
    };
  }
  if (!modulePythonHasPynetbox()) {
    return {
      version: null,
      skipReason: `pynetbox is not importable by ${MODULE_PYTHON}; apt-get install -y python3-pynetbox`,
    };
  }
  return { version, skipReason: null };
}

function recapOf(stats: Record<string, Partial<Recap>> | undefined): Recap {
  const host = stats?.localhost ?? {};
  return {
    ok: host.ok ?? 0,
    changed: host.changed ?? 0,
    failures: host.failures ?? 0,
    unreachable: host.unreachable ?? 0,
    skipped: host.skipped ?? 0,
    rescued: host.rescued ?? 0,
    ignored: host.ignored ?? 0,
  };
}

function tasksOf(report: any): TaskResult[] {
  const tasks: TaskResult[] = [];
  for (const play of report.plays ?? []) {
    for (const entry of play.tasks ?? []) {
      const result = entry.hosts?.localhost;
      if (!result) continue;
      tasks.push({
        name: entry.task.name,
        changed: Boolean(result.changed),
        failed: Boolean(result.failed),
        skipped: Boolean(result.skipped),
        msg: result.msg,
        result,
      });
    }
  }
  return tasks;
}

/** Runs `playbook` (a path) against the service and returns its parsed json report. */
export async function runPlaybook(
  service: TestService,
  playbook: string,
  options: PlaybookOptions = {},
): Promise<PlaybookRun> {
  const { dir, env } = scratchEnvironment();
  try {
    const inventory = path.join(dir, 'inventory.ini');
    writeFileSync(inventory, `localhost ansible_connection=local ansible_python_interpreter=${MODULE_PYTHON}\n`);
    // A file, not the command line: the token stays out of the process list.
    const variables = path.join(dir, 'vars.json');
    writeFileSync(variables, JSON.stringify({ netbox_url: service.url, netbox_token: ADMIN_TOKEN, ...options.vars }), {
      mode: 0o600,
    });
    const args = ['-i', inventory, '-e', `@${variables}`, path.resolve(playbook)];
    if (options.skipTags?.length) args.push('--skip-tags', options.skipTags.join(','));
    const child = spawn(ANSIBLE_PLAYBOOK, args, { env, cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    let report: any;
    try {
      report = JSON.parse(stdout);
    } catch {
      throw new Error(`ansible-playbook exited ${code} without a json report:\n${stdout}\n${stderr}`);
    }
    return { code, tasks: tasksOf(report), recap: recapOf(report.stats), stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
