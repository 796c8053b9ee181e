import { servePoolJobs } from '../templates/poolProcess.js';
import type { SandboxJob, SandboxResult } from '../templates/renderInSandbox.js';
import { verdictOf } from './conditionVerdicts.js';

/**
 * A process of the conditions' TemplatePool: evaluates webhooks' stored conditions on a
 * changed object off the service's event loop, so a rule set that takes long (a regex
 * condition's program against a long value, a rule set of thousands of rules) costs its
 * own job, stopped at the pool's deadline, never the service's requests. It speaks the
 * renderer's protocol: each "template" of a job is one webhook's conditions as JSON text,
 * the context `{data}`; each output is that webhook's Verdict as JSON text.
 */
function evaluate(job: SandboxJob): SandboxResult {
  const { data } = JSON.parse(job.contextJson) as { data: unknown };
  const outputs = job.templates.map(({ code }) => JSON.stringify(verdictOf(JSON.parse(code), data)));
  return { ok: true, outputs };
}

servePoolJobs(evaluate);
