// One autocannon run, in a worker thread of bench/api.bench.ts (plain JS: tsx does not
// reach worker threads, and autocannon ships no types). The load generator gets its own
// thread so that it does not share the service's event loop and skew its latencies.
//
// workerData: { url, connections, duration, headers, scenario }
//   scenario: { kind: 'get', path } | { kind: 'createTag', path, prefix }
// Posts back { netledgerResult } (the aggregated autocannon result as plain JSON).
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

const { url, connections, duration, headers, scenario } = workerData;

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
    : [{ method: 'GET', path: scenario.path }];

const opts = { url, connections, duration, headers, requests };
// Off the main thread autocannon returns raw (encoded) histograms and leaves the
// aggregation to its own worker manager: aggregate here, as the main thread would.
const raw = await autocannon(opts);
let result = raw;
if (!raw.latency) {
  result = autocannon.aggregateResult([raw], opts);
  // Its per-second request histogram is not carried over by aggregateResult: req/s from the totals.
  result.requests.average = raw.totalCompletedRequests / raw.duration;
}
parentPort.postMessage({ netledgerResult: JSON.parse(JSON.stringify({ ...result, sent: counter })) });
