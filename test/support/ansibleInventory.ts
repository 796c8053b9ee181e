/**
 * Running `ansible-inventory --list` with the netbox.netbox collection's nb_inventory
 * plugin against a test service. The plugin's configuration is written to a scratch
 * directory (Ansible's home and temporary files live there too) as `netbox.yml`, with the
 * service URL and the admin token; runs made through one runner share that directory,
 * so they share what the plugin keeps between runs (its copy of the schema document,
 * `netbox_api_dump.json`, beside Ansible's temporary directory).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { ANSIBLE_PLAYBOOK, scratchEnvironment } from './ansible.js';
import { ADMIN_TOKEN, type TestService } from './startService.js';

export const ANSIBLE_INVENTORY = path.join(path.dirname(ANSIBLE_PLAYBOOK), 'ansible-inventory');

export interface InventoryRun {
  code: number | null;
  /** `--list` output: groups with `hosts`/`children`, and `_meta.hostvars`. */
  inventory: Record<string, any>;
  stdout: string;
  stderr: string;
}

export interface InventoryRunner {
  /** Runs `ansible-inventory -i netbox.yml --list` with the plugin options given (beside plugin, api_endpoint and token). */
  list(options: Record<string, unknown>): Promise<InventoryRun>;
  /** The schema document the plugin keeps between runs, or null before its first run. */
  keptSchema(): Record<string, any> | null;
  close(): void;
}

/**
 * ansible-core 2.19 prints values it marks unsafe as `{"__ansible_unsafe": value}` in
 * `--list` output (earlier releases print the value): the tests compare the values.
 */
function plainValues(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainValues);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (entries.length === 1 && entries[0]![0] === '__ansible_unsafe') return plainValues(entries[0]![1]);
  return Object.fromEntries(entries.map(([key, item]) => [key, plainValues(item)]));
}

export function inventoryRunner(service: TestService): InventoryRunner {
  const { dir, env } = scratchEnvironment();
  const config = path.join(dir, 'netbox.yml');
  // the plugin keeps its copy of the schema in the parent of Ansible's per-process temporary directory
  const keptSchemaFile = path.join(String(env.ANSIBLE_LOCAL_TEMP), 'netbox_api_dump.json');
  return {
    async list(options) {
      // JSON is YAML; the file (not the command line) keeps the token out of the process list
      writeFileSync(
        config,
        JSON.stringify({
          plugin: 'netbox.netbox.nb_inventory',
          api_endpoint: service.url,
          token: ADMIN_TOKEN,
          ...options,
        }),
        { mode: 0o600 },
      );
      const child = spawn(ANSIBLE_INVENTORY, ['-i', config, '--list'], {
        env: { ...env, ANSIBLE_INVENTORY_UNPARSED_FAILED: '1' },
        cwd: dir,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      let inventory: Record<string, any> = {};
      try {
        inventory = plainValues(JSON.parse(stdout)) as Record<string, any>;
      } catch {
        // left empty: the test reports code and stderr
      }
      return { code, inventory, stdout, stderr };
    },
    keptSchema() {
      return existsSync(keptSchemaFile) ? JSON.parse(readFileSync(keptSchemaFile, 'utf8')) : null;
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
