import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type { SandboxJob, SandboxResult } from './renderInSandbox.js';
import { TemplateBusyError, TemplateError, TemplateLimitError } from './TemplateError.js';
import type { TemplateJob, TemplateLimits, TemplateRenderer } from './TemplateRenderer.js';

/**
 * Templates rendered off the event loop, in renderer processes with a heap limit, an empty
 * environment and no code generation from strings: a template that loops for ever,
 * allocates without end or recurses as deep as it can costs its own job (answered as a
 * TemplateLimitError) and at most its process, which is replaced; the service's requests go
 * on being answered meanwhile. Processes rather than worker threads: V8 may end the whole
 * process when a thread's heap runs out, and a thread shares the service's memory and files.
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
  process: ChildProcess;
  /** The end of what it wrote to stderr: says why it died (V8's out-of-memory report). */
  stderr: string;
  /** Loaded and waiting for jobs (a job's time limit does not include the thread's start). */
  ready: boolean;
  current: Pending | null;
  timer: NodeJS.Timeout | null;
}

/**
 * The renderer's module (given as its built `.js` URL), and from the TypeScript sources
 * (npm start, tests) the `.ts` beside it with tsx's loader.
 */
function rendererEntry(module: URL): { module: string; execArgv: string[] } {
  if (!import.meta.url.endsWith('.ts')) return { module: fileURLToPath(module), execArgv: [] };
  return {
    module: fileURLToPath(module).replace(/\.js$/, '.ts'),
    execArgv: ['--import', import.meta.resolve('tsx')],
  };
}

/** The module a pool runs unless told otherwise: the template sandbox (rendererProcess.ts). */
const TEMPLATE_RENDERER = new URL('./rendererProcess.js', import.meta.url);

export class TemplatePool implements TemplateRenderer {
  private readonly slots = new Set<Slot>();
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  private jobsUnderWay = 0;
  private hold: NodeJS.Timeout | null = null;

  /**
   * `renderer`: the module each process runs (as its built `.js` URL). It speaks the
   * renderer's protocol (a `ready` message, then a SandboxResult per job); another layer
   * may hand its own pure evaluation over user-written rules this way (webhook conditions).
   */
  constructor(
    private readonly limits: TemplateLimits,
    private readonly renderer: URL = TEMPLATE_RENDERER,
  ) {}

  /**
   * A job whose process was killed while it rendered one of several templates is rendered
   * again template by template, so that the error names the template that reached the limit
   * (a webhook's `body_template`, not its `payload_url`), at the cost of reaching it twice.
   */
  async render(job: TemplateJob): Promise<string[]> {
    try {
      return await this.renderJob(job);
    } catch (error) {
      if (!(error instanceof TemplateLimitError) || error.located) throw error;
      for (const template of job.templates) await this.renderJob({ ...job, templates: [template] });
      throw error; // each rendered alone: the limit was reached by the job as a whole
    }
  }

  private renderJob(job: TemplateJob): Promise<string[]> {
    if (this.closed) return Promise.reject(new Error('the template renderer is closed'));
    const names = job.templates.map((t) => t.name);
    if (this.queue.length >= this.limits.queue) {
      return Promise.reject(new TemplateBusyError('every template renderer is busy; try again later'));
    }
    const rendered = new Promise<string[]>((resolve, reject) => {
      const sandboxJob = {
        templates: job.templates,
        contextJson: JSON.stringify(job.context),
        querysets: job.querysets ?? [],
      };
      this.queue.push({ id: this.nextId++, job: sandboxJob, names, resolve, reject });
      this.dispatch();
    });
    this.holdWhile(rendered);
    return rendered;
  }

  /**
   * Keeps this process alive while a job is under way: its renderers do not (an idle pool
   * must not keep a stopping service or a finished command alive), and a command whose only
   * work left is a render would otherwise end before its answer comes.
   */
  private holdWhile(job: Promise<unknown>): void {
    this.jobsUnderWay++;
    this.hold ??= setInterval(() => {}, 2 ** 30);
    const release = () => {
      if (--this.jobsUnderWay > 0 || !this.hold) return;
      clearInterval(this.hold);
      this.hold = null;
    };
    job.then(release, release);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('the template renderer is closed'));
    await Promise.all([...this.slots].map((slot) => this.retire(slot, new Error('the template renderer is closed'))));
  }

  private idleSlot(): Slot | null {
    for (const slot of this.slots) if (slot.ready && slot.current === null) return slot;
    return null;
  }

  private dispatch(): void {
    const free = [...this.slots].filter((slot) => !slot.ready || slot.current === null).length;
    for (let wanted = this.queue.length - free; wanted > 0 && this.slots.size < this.limits.workers; wanted--)
      this.spawn();
    while (this.queue.length > 0) {
      const slot = this.idleSlot();
      if (!slot) return;
      const pending = this.queue.shift()!;
      slot.current = pending;
      slot.timer = setTimeout(() => {
        const limit = `ran past its time limit (${this.limits.timeoutMs} ms)`;
        void this.retire(slot, new TemplateLimitError(limit, pending.names[0] ?? '', pending.names.length === 1));
      }, this.limits.timeoutMs + HARD_DEADLINE_GRACE_MS);
      const limits = { timeoutMs: this.limits.timeoutMs, maxOutputChars: this.limits.outputMb * 2 ** 20 };
      slot.process.send({ id: pending.id, job: pending.job, limits });
    }
  }

  private spawn(): Slot {
    const { module, execArgv } = rendererEntry(this.renderer);
    const child = fork(module, [], {
      env: {},
      execArgv: [
        ...execArgv,
        '--disallow-code-generation-from-strings',
        `--max-old-space-size=${this.limits.memoryMb}`,
        '--max-semi-space-size=8',
        '--stack-size=2000',
      ],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const slot: Slot = { process: child, stderr: '', ready: false, current: null, timer: null };
    this.slots.add(slot);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (slot.stderr = (slot.stderr + chunk).slice(-4096)));
    child.on('message', (message: { ready?: true; id: number; result: SandboxResult }) => {
      if (message.ready) {
        slot.ready = true;
        this.dispatch();
      } else {
        this.answer(slot, message);
      }
    });
    child.on(
      'error',
      (error) =>
        void this.retire(
          slot,
          new TemplateError(`the renderer failed: ${error.message}`, slot.current?.names[0] ?? ''),
        ),
    );
    child.on('exit', () => {
      const name = slot.current?.names[0] ?? '';
      const located = (slot.current?.names.length ?? 1) === 1;
      const failure = /heap out of memory|Allocation failed/.test(slot.stderr)
        ? new TemplateLimitError(`ran past its memory limit (${this.limits.memoryMb} MB)`, name, located)
        : new TemplateError('the renderer stopped', name);
      void this.retire(slot, failure);
    });
    // Renderers never keep the service's process alive by themselves.
    child.unref();
    (child as unknown as { channel?: { unref(): void } }).channel?.unref();
    (child.stderr as unknown as { unref(): void }).unref(); // an open pipe would, as much as the process
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
    else if (result.limited) pending.reject(new TemplateLimitError(result.message, result.template));
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
    if (slot.process.exitCode === null && slot.process.signalCode === null) {
      const exited = new Promise((resolve) => slot.process.once('exit', resolve));
      slot.process.ref(); // else the wait below would not keep a stopping process alive to see it end
      slot.process.kill('SIGKILL');
      await exited;
    }
    if (!this.closed) this.dispatch();
  }
}
