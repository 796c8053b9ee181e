/**
 * The port through which the service renders user-written Jinja2 templates (export
 * templates; webhook bodies, headers and URLs). The templates of one job share one context
 * (plain JSON data) and are rendered in one sandbox, in order.
 */
export interface TemplateJob {
  templates: Array<{ name: string; code: string }>;
  /** JSON-like values only: it crosses to the sandbox as JSON text. */
  context: Record<string, unknown>;
  /**
   * Top-level context arrays that also answer `all()`, as Django querysets do in templates
   * written for NetBox (`queryset.all()`).
   */
  querysets?: string[];
}

export interface TemplateRenderer {
  /** The outputs in the order of the job's templates; rejects with a TemplateError naming the template. */
  render(job: TemplateJob): Promise<string[]>;
  close(): Promise<void>;
}

export interface TemplateLimits {
  /** Wall-clock time one job may run, compiling included. */
  timeoutMs: number;
  /** Heap one renderer may use (its old generation); past it the renderer is replaced. */
  memoryMb: number;
  /** Output one job may produce (millions of characters, about MB for ASCII text). */
  outputMb: number;
  /** Renderers running at once (each a process of its own). */
  workers: number;
  /** Jobs waiting for a renderer; more are refused as busy. */
  queue: number;
}
