import { Worker } from 'node:worker_threads';
import type { SandboxJob, SandboxResult } from './renderInSandbox.js';
import { TemplateBusyError, TemplateError, TemplateLimitError } from './TemplateError.js';
import type { TemplateJob, TemplateLimits, TemplateRenderer } from './TemplateRenderer.js';

/**
 * Templates rendered off the event loop, in worker threads with a heap limit and an empty
 * environment: a template that loops for ever, allocates without end or recurses as deep as
 * it can costs its own job (answered as a TemplateLimitError) and at most the thread, which
 * is replaced; the service's requests go on being answered meanwhile.
 */

// The sandbox stops a job at its time limit itself; this deadline is for a thread stuck
// where it cannot (compiling a huge template, parsing a huge context).
const HARD_DEADLINE_GRACE_MS = 1000;

interface Pending {
  id: number;
  job: SandboxJob;
  names: string[];
  resolve: (outputs: string[]) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  current: Pending | null;
  timer: NodeJS.Timeout | null;
}

/**
 * The thread's entry: the compiled module, or from the TypeScript sources (npm start, tests)
 * the module loaded through tsx, whose loader Node 20 does not pass on to worker threads.
 */
function workerEntry(): { entry: string | URL; eval: boolean } {
  if (!import.meta.url.endsWith('.ts')) return { entry: new URL('./templateWorker.js', import.meta.url), eval: false };
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const module = JSON.stringify(new URL('./templateWorker.ts', import.meta.url).href);
  return { entry: `import(${tsx}).then(({ register }) => { register(); return import(${module}); })`, eval: true };
}

export class TemplatePool implements TemplateRenderer {
  private readonly slots = new Set<Slot>();
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly limits: TemplateLimits) {}

  render(job: TemplateJob): Promise<string[]> {
    if (this.closed) return Promise.reject(new Error('the template renderer is closed'));
    const names = job.templates.map((t) => t.name);
    if (this.queue.length >= this.limits.queue) {
      return Promise.reject(new TemplateBusyError('every template renderer is busy; try again later'));
    }
    return new Promise((resolve, reject) => {
      const sandboxJob = { templates: job.templates, contextJson: JSON.stringify(job.context), querysets: job.querysets ?? [] };
      this.queue.push({ id: this.nextId++, job: sandboxJob, names, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('the template renderer is closed'));
    await Promise.all([...this.slots].map((slot) => this.retire(slot, new Error('the template renderer is closed'))));
  }

  private idleSlot(): Slot | null {
    for (const slot of this.slots) if (slot.current === null) return slot;
    return null;
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.idleSlot() ?? (this.slots.size < this.limits.workers ? this.spawn() : null);
      if (!slot) return;
      const pending = this.queue.shift()!;
      slot.current = pending;
      slot.timer = setTimeout(() => {
        const limit = `ran past its time limit (${this.limits.timeoutMs} ms)`;
        void this.retire(slot, new TemplateLimitError(limit, pending.names[0] ?? ''));
      }, this.limits.timeoutMs + HARD_DEADLINE_GRACE_MS);
      slot.worker.postMessage({ id: pending.id, job: pending.job, timeoutMs: this.limits.timeoutMs });
    }
  }

  private spawn(): Slot {
    const { entry, eval: evaluate } = workerEntry();
    const worker = new Worker(entry, {
      eval: evaluate,
      env: {},
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    worker.unref();
    const slot: Slot = { worker, current: null, timer: null };
    this.slots.add(slot);
    worker.on('message', (message: { id: number; result: SandboxResult }) => this.answer(slot, message));
    worker.on('error', (error: Error & { code?: string }) => {
      const name = slot.current?.names[0] ?? '';
      const failure =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new TemplateLimitError(`ran past its memory limit (${this.limits.memoryMb} MB)`, name)
          : new TemplateError(`the renderer failed: ${error.message}`, name);
      void this.retire(slot, failure);
    });
    worker.on('exit', () => void this.retire(slot, new TemplateError('the renderer stopped', slot.current?.names[0] ?? '')));
    return slot;
  }

  private answer(slot: Slot, message: { id: number; result: SandboxResult }): void {
    const pending = slot.current;
    if (!pending || pending.id !== message.id) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.current = null;
    slot.timer = null;
    const { result } = message;
    if (result.ok) pending.resolve(result.outputs);
    else if (result.timedOut) pending.reject(new TemplateLimitError(result.message, result.template));
    else pending.reject(new TemplateError(result.message, result.template));
    this.dispatch();
  }

  /** Ends a thread (after a limit or a failure), fails the job it held, and lets another take the queue. */
  private async retire(slot: Slot, failure: Error): Promise<void> {
    if (!this.slots.delete(slot)) return;
    if (slot.timer) clearTimeout(slot.timer);
    const pending = slot.current;
    slot.current = null;
    pending?.reject(failure);
    await slot.worker.terminate();
    if (!this.closed) this.dispatch();
  }
}
