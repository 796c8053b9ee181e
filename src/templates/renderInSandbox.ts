import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';

import nunjucks from 'nunjucks';

import { SANDBOX_PRELUDE } from './sandboxPrelude.js';

/**
 * One job rendered in a fresh V8 context: nunjucks' runtime (its browser build, which has no
 * compiler) is loaded into a realm that may not generate code from strings, has no `process`,
 * `require` or dynamic `import`, and whose global object has no prototype leading out of it.
 * Templates are compiled to JavaScript here, outside it, and only evaluated inside it; the
 * context crosses as JSON text and the outputs come back as JSON text, so no object of this
 * realm is ever reachable from a template. A fresh context per job means one template cannot
 * leave anything behind for the next.
 */

// The compiler must read Jinja2's syntax (slices, True/False/None) as the runtime inside does.
nunjucks.installJinjaCompat();
type Compile = (src: string, asyncFilters: string[], extensions: unknown[], name: string, opts: object) => string;
const compile = (nunjucks as unknown as { compiler: { compile: Compile } }).compiler.compile;

const runtimeSource = readFileSync(createRequire(import.meta.url).resolve('nunjucks/browser/nunjucks-slim.js'), 'utf8');
const runtimeScript = new vm.Script(runtimeSource, { filename: 'nunjucks-slim.js' });
const preludeScript = new vm.Script(SANDBOX_PRELUDE, { filename: 'sandbox-prelude.js' });
const renderScript = new vm.Script('__render()', { filename: 'render.js' });

/** A job as it reaches a renderer: the context already JSON text. */
export interface SandboxJob {
  templates: Array<{ name: string; code: string }>;
  contextJson: string;
  querysets: string[];
}

/** The limits one job runs under. */
export interface SandboxLimits {
  timeoutMs: number;
  /** Characters of output, all templates of the job together. */
  maxOutputChars: number;
}

/** `limited`: the job was stopped at a limit (not the template's own error). */
export type SandboxResult =
  { ok: true; outputs: string[] } | { ok: false; template: string; message: string; limited?: boolean };

/** Thrown by V8 when a script runs past its `timeout`. */
function isTimeout(error: unknown): boolean {
  return (error as { code?: string })?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

/**
 * nunjucks' render error "(name) [Line 2, Column 5]\n  Error: ..." as one line, `line 3, column
 * 6: ...`: its render errors count lines and columns from 0 (its syntax errors from 1, as Jinja2).
 */
export function templateMessage(message: string, name: string): string {
  const unnamed = message.replace(/^Template render error:?\s*/, '');
  const text = unnamed.startsWith(`(${name})`) ? unnamed.slice(name.length + 2).trimStart() : unnamed;
  const located = /^\[Line (\d+), Column (\d+)\]\s*/.exec(text);
  const rest = located ? text.slice(located[0].length) : text;
  const oneLine = rest
    .replace(/^(?:Template render error: |(?:Type|Range|Reference)?Error: )+/, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  return located ? `line ${Number(located[1]) + 1}, column ${Number(located[2]) + 1}: ${oneLine}` : oneLine;
}

function compileTemplate(code: string, name: string): string {
  try {
    return compile(code, [], [], name, { throwOnUndefined: false });
  } catch (error) {
    const { lineno, colno, message } = error as { lineno?: number; colno?: number; message: string };
    throw new Error(lineno ? `line ${lineno}, column ${colno ?? 1}: ${message}` : message, { cause: 'syntax' });
  }
}

export function renderInSandbox(job: SandboxJob, limits: SandboxLimits): SandboxResult {
  const { timeoutMs, maxOutputChars } = limits;
  const deadline = Date.now() + timeoutMs;
  const remaining = () => Math.max(1, deadline - Date.now());
  const context = vm.createContext(Object.create(null), {
    name: 'template sandbox',
    codeGeneration: { strings: false, wasm: false },
    microtaskMode: 'afterEvaluate',
  });
  let current = job.templates[0]?.name ?? '';
  try {
    runtimeScript.runInContext(context, { timeout: remaining() });
    preludeScript.runInContext(context, { timeout: remaining() });
    for (const { name, code } of job.templates) {
      current = name;
      const source = compileTemplate(code, name);
      const wrapped = `__templates.push({ name: ${JSON.stringify(name)}, code: (function () {\n${source}\n})() });`;
      new vm.Script(wrapped, { filename: name }).runInContext(context, { timeout: remaining() });
    }
    context.__input = job.contextJson;
    context.__querysets = JSON.stringify(job.querysets);
    const answer: unknown = renderScript.runInContext(context, { timeout: remaining() });
    if (typeof answer !== 'string')
      return { ok: false, template: current, message: 'the template sandbox answered nothing' };
    const result = JSON.parse(answer) as { ok: boolean; outputs?: unknown; template?: unknown; message?: unknown };
    if (result.ok && Array.isArray(result.outputs) && result.outputs.every((o) => typeof o === 'string')) {
      const outputs = result.outputs as string[];
      const size = outputs.reduce((sum, output) => sum + output.length, 0);
      if (size > maxOutputChars) {
        const limit = `its output is larger than the limit (${Math.round(maxOutputChars / 2 ** 20)} MB)`;
        return { ok: false, template: job.templates.at(-1)?.name ?? current, message: limit, limited: true };
      }
      return { ok: true, outputs };
    }
    const template = typeof result.template === 'string' ? result.template : current;
    return { ok: false, template, message: templateMessage(String(result.message), template) };
  } catch (error) {
    if (isTimeout(error)) {
      // The template being rendered when time ran out (the prelude notes it), not the last compiled.
      const rendering = Object.getOwnPropertyDescriptor(context, '__rendering')?.value as unknown;
      const template = typeof rendering === 'string' ? rendering : current;
      return { ok: false, template, message: `ran past its time limit (${timeoutMs} ms)`, limited: true };
    }
    const { message, cause } = error as Error;
    return {
      ok: false,
      template: current,
      message: cause === 'syntax' ? message : templateMessage(message ?? String(error), current),
    };
  }
}
