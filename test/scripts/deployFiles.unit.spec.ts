import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import test from 'ava';
import { parse } from 'yaml';

/**
 * docker-compose.yml and the Dockerfile cannot be run here (no Docker engine), so
 * scripts/topology-local.sh runs the same topology as processes: this holds the three equal
 * by reading them (issue 28): the same commands (build, then the production start) and the
 * same variables for the writer and the replica, with the differences named below.
 */
const root = new URL('../../', import.meta.url).pathname;
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

const script = read('scripts/topology-local.sh');
const dockerfile = read('Dockerfile');
const compose = parse(read('docker-compose.yml')) as {
  services: Record<string, { environment?: Record<string, string | number>; command?: unknown; build?: unknown }>;
};
const packageScripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

/** The script's own settings with their defaults (`topic="${KAFKA_TOPIC:-netledger.changes}"`). */
const defaults = Object.fromEntries(
  [...script.matchAll(/^([a-z_]+)="\$\{[A-Z_]+:-([^}]*)\}"$/gm)].map(([, name, value]) => [name!, value!]),
);

/** VAR=value pairs in a piece of the script (quotes dropped, the script's settings at their defaults). */
const assignments = (text: string) =>
  Object.fromEntries(
    [...text.matchAll(/\b([A-Z][A-Z0-9_]*)=("[^"]*"|\S+)/g)].map(([, k, v]) => [
      k,
      v!.replace(/"/g, '').replace(/\$([a-z_]+)\b/g, (whole, name: string) => defaults[name] ?? whole),
    ]),
  );

const functionBody = (name: string) => {
  const match = new RegExp(`^${name}\\(\\) \\{[^\\n]*\\n([\\s\\S]*?)^\\}`, 'm').exec(script);
  if (!match) throw new Error(`scripts/topology-local.sh has no function ${name}`);
  return match[1]!;
};

/** The variables each service of the script is started with: common_env, launch's PORT, its own. */
const scriptEnv = (service: 'writer' | 'reader1') => {
  const own = new RegExp(`launch ${service} "[^"]*" (.*)$`, 'm').exec(
    service === 'writer' ? functionBody('start_writer') : script,
  );
  if (!own) throw new Error(`scripts/topology-local.sh does not launch ${service}`);
  return {
    ...assignments(functionBody('common_env')),
    ...assignments(/PORT="\$port"/.exec(functionBody('launch'))![0]),
    ...assignments(own[1]!),
  };
};

// Set on one side only, each for a reason the other side does not have.
const ONLY_IN_COMPOSE = {
  MONGODB_URL: 'the writer projects into MongoDB there; no MongoDB server can run here (README, "MongoDB")',
};
const ONLY_IN_SCRIPT = {
  SUPERUSER_API_TOKEN:
    'a known token for the test that drives the script; compose leaves the first superuser to the operator',
};
// Addresses and paths differ by nature (container names and ports against loopback); the rest must be equal.
const ADDRESSES = new Set(['KAFKA_BROKERS', 'HOST', 'PORT', 'DATA_DIR', 'WRITER_URL']);

for (const [service, composeName] of [
  ['writer', 'netledger'],
  ['reader1', 'netledger-reader'],
] as const) {
  test(`deploy files: compose's ${composeName} has the variables the topology script gives its ${service}`, (t) => {
    const fromCompose = Object.fromEntries(
      Object.entries(compose.services[composeName]?.environment ?? {}).map(([k, v]) => [k, String(v)]),
    );
    const fromScript = scriptEnv(service);
    const names = (env: Record<string, string>, without: object) =>
      Object.keys(env)
        .filter((k) => !(k in without))
        .sort();
    t.deepEqual(names(fromCompose, ONLY_IN_COMPOSE), names(fromScript, ONLY_IN_SCRIPT));
    for (const [name, value] of Object.entries(fromScript)) {
      if (!ADDRESSES.has(name) && name in fromCompose) t.is(fromCompose[name], value, `${name} has the same value`);
    }
  });
}

test("deploy files: the services run the image's command, the production start the script runs", (t) => {
  const cmd = /^CMD (\[.*\])$/m.exec(dockerfile);
  t.truthy(cmd, 'the Dockerfile has an exec-form CMD');
  const command = (JSON.parse(cmd![1]!) as string[]).join(' ');
  t.is(command, 'npm run start:prod');
  t.regex(packageScripts['start:prod']!, /^exec node dist\/main\.js$/, 'node from the build, exec so signals reach it');
  t.true(functionBody('launch').includes(`"$@" ${command} `), 'the script launches each service with it');
  for (const name of ['netledger', 'netledger-reader']) {
    t.is(compose.services[name]?.command, undefined, `${name} keeps the image's CMD`);
  }
});

test('deploy files: the image is built as the script builds, and the build carries every static folder', (t) => {
  t.regex(dockerfile, /^RUN npm run build$/m, "the Dockerfile's build stage");
  t.regex(functionBody('build'), /npm run build/, "the script's build");
  t.regex(dockerfile, /^COPY --from=build \/app\/dist \.\/dist$/m, 'the run stage takes the build');
  const staticDirs: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const child = path.posix.join(dir, entry.name);
      if (entry.name === 'static') staticDirs.push(child);
      else walk(child);
    }
  };
  walk('src');
  t.true(staticDirs.length > 0);
  for (const dir of staticDirs) {
    const target = `dist/${dir.slice('src/'.length, -'/static'.length)}/`;
    t.true(packageScripts.build!.includes(`cp -r ${dir} ${target}`), `npm run build copies ${dir} (read at run time)`);
  }
});
