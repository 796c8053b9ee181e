// One autocannon run for the benchmarks (see bench/cannon.ts), in a child process of its own (plain JS:
// autocannon ships no types). The load generator is kept out of the service's process
// so that it does not share its event loop, and so that the service process's CPU time
// (process.cpuUsage() in the parent) is the service's alone.
//
// Receives over IPC: { url, connections, duration, headers, scenario }
//   scenario: { kind: 'get', path } | { kind: 'createTag', path, prefix } | { kind: 'post', path, body }
//             | { kind: 'send', method, path, body }
// Sends back { netledgerResult } (the autocannon result as plain JSON) and exits.
import autocannon from 'autocannon';

process.once('message', async ({ url, connections, duration, headers, scenario }) => {
  let counter = 0;
  const requests =
    scenario.kind === 'createTag'
      ? [
          {
            method: 'POST',
            path: scenario.path,
            // A unique name/slug per request (tag name and slug are unique).
            setupRequest(request) {
              const n = ++counter;
              const name = `${scenario.prefix}-${n}`;
              return { ...request, body: JSON.stringify({ name, slug: name, description: `bench tag ${n}` }) };
            },
          },
        ]
      : scenario.kind === 'post' || scenario.kind === 'send'
        ? [{ method: scenario.method ?? 'POST', path: scenario.path, body: JSON.stringify(scenario.body) }]
        : [{ method: 'GET', path: scenario.path }];
  const result = await autocannon({ url, connections, duration, headers, requests });
  process.send({ netledgerResult: JSON.parse(JSON.stringify({ ...result, sent: counter })) }, () => process.exit(0));
});
