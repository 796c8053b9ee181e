/**
 * Prometheus metrics in the text exposition format (version 0.0.4), kept in-process:
 * requests by method, route template and status, a latency histogram per route, and
 * gauges for the event log and the projector read at scrape time.
 */
import type { Services } from '../Services.js';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

function labels(values: Record<string, string>): string {
  const parts = Object.entries(values).map(
    ([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`,
  );
  return parts.length ? `{${parts.join(',')}}` : '';
}

export class Metrics {
  private readonly requests = new Map<string, { method: string; route: string; status: string; count: number }>();
  private readonly durations = new Map<string, { method: string; route: string; histogram: Histogram }>();
  private readonly startedAt = Date.now();

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    const counter = this.requests.get(key);
    if (counter) counter.count++;
    else this.requests.set(key, { method, route, status: String(status), count: 1 });
    const hkey = `${method} ${route}`;
    let entry = this.durations.get(hkey);
    if (!entry)
      this.durations.set(
        hkey,
        (entry = { method, route, histogram: { counts: BUCKETS.map(() => 0), sum: 0, count: 0 } }),
      );
    const h = entry.histogram;
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]) h.counts[i]++;
    h.sum += seconds;
    h.count++;
  }

  async render(services: Services): Promise<string> {
    const lines: string[] = [];
    const metric = (name: string, type: string, help: string) =>
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);

    metric(
      'netledger_http_requests_total',
      'counter',
      'HTTP requests answered, by method, route template and status code.',
    );
    for (const r of this.requests.values())
      lines.push(
        `netledger_http_requests_total${labels({ method: r.method, route: r.route, status: r.status })} ${r.count}`,
      );

    metric(
      'netledger_http_request_duration_seconds',
      'histogram',
      'Time to answer HTTP requests, by method and route template.',
    );
    for (const { method, route, histogram: h } of this.durations.values()) {
      BUCKETS.forEach((le, i) =>
        lines.push(
          `netledger_http_request_duration_seconds_bucket${labels({ method, route, le: String(le) })} ${h.counts[i]}`,
        ),
      );
      lines.push(`netledger_http_request_duration_seconds_bucket${labels({ method, route, le: '+Inf' })} ${h.count}`);
      lines.push(`netledger_http_request_duration_seconds_sum${labels({ method, route })} ${h.sum}`);
      lines.push(`netledger_http_request_duration_seconds_count${labels({ method, route })} ${h.count}`);
    }

    /** A metric of one unlabelled value. */
    const single = (name: string, type: 'gauge' | 'counter', help: string, value: number) => {
      metric(name, type, help);
      lines.push(`${name} ${value}`);
    };
    const head = services.log.head();
    const position = services.projector.position;
    single('netledger_event_log_head', 'gauge', 'Last durable position of the event log.', head);
    single('netledger_projector_position', 'gauge', 'Last event log position applied to the read models.', position);
    single(
      'netledger_projector_lag_events',
      'gauge',
      'Events in the log not yet applied to the read models.',
      Math.max(0, head - position),
    );

    const stats = await services.log.storageStats?.();
    if (stats && stats.sizeBytes !== null)
      single('netledger_event_log_size_bytes', 'gauge', 'Size of the embedded event log file.', stats.sizeBytes);
    if (stats) {
      single(
        'netledger_event_log_appends_total',
        'counter',
        'Batches appended to the event log by this process.',
        stats.appends,
      );
      single(
        'netledger_event_log_syncs_total',
        'counter',
        'fsyncs of the event log by this process (group commit shares them).',
        stats.syncs,
      );
    }

    single(
      'netledger_writer_up',
      'gauge',
      '1 while the writer accepts writes, 0 while the event log cannot be written or after it failed.',
      services.coordinator.health().state === 'up' ? 1 : 0,
    );
    const cache = services.renderCache;
    if (cache) {
      single('netledger_render_cache_hits_total', 'counter', 'Objects served from the render cache.', cache.hits);
      single(
        'netledger_render_cache_misses_total',
        'counter',
        'Objects the render cache did not hold (or held stale) and that were rendered.',
        cache.misses,
      );
      single('netledger_render_cache_bytes', 'gauge', 'Bytes the render cache holds.', cache.bytesHeld);
    }
    const answers = services.answers;
    if (answers?.enabled) {
      single(
        'netledger_answer_cache_hits_total',
        'counter',
        'Plain reads answered from the answer cache.',
        answers.hits,
      );
      single(
        'netledger_answer_cache_misses_total',
        'counter',
        'Plain reads the answer cache held for another read-model position, or not for this caller.',
        answers.misses,
      );
    }
    const memory = process.memoryUsage();
    single('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.', memory.rss);
    single('nodejs_heap_used_bytes', 'gauge', 'V8 heap in use, in bytes.', memory.heapUsed);
    single(
      'process_start_time_seconds',
      'gauge',
      'Start time of the process since the Unix epoch, in seconds.',
      Math.floor(this.startedAt / 1000),
    );
    return lines.join('\n') + '\n';
  }
}

/** Bytes of the embedded log file, or null for a log that is not a local file (Kafka). */
export async function eventLogSize(services: Services): Promise<number | null> {
  return (await services.log.storageStats?.())?.sizeBytes ?? null;
}

const registry = new WeakMap<Services, Metrics>();

/** One Metrics per service instance, shared by the middleware that observes and the route that exposes. */
export function metricsFor(services: Services): Metrics {
  let metrics = registry.get(services);
  if (!metrics) registry.set(services, (metrics = new Metrics()));
  return metrics;
}
