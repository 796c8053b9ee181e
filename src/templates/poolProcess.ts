import type { SandboxJob, SandboxLimits, SandboxResult } from './renderInSandbox.js';

/** A job as the TemplatePool sends it to one of its processes. */
interface PoolRequest {
  id: number;
  job: SandboxJob;
  limits: SandboxLimits;
}

/**
 * The process side of the TemplatePool's protocol, for every kind of pool process (template
 * renderers, webhook conditions, stored patterns): one job at a time, each answered by
 * `handle`; the pool going away (the service stopped or crashed) ends the process; `ready`
 * is sent once loaded, and the pool counts a job's time from then on (loading takes a
 * while, longer from the TypeScript sources).
 */
export function servePoolJobs(handle: (job: SandboxJob, limits: SandboxLimits) => SandboxResult): void {
  process.on('disconnect', () => process.exit(0));
  process.on('message', (request: PoolRequest) => {
    process.send!({ id: request.id, result: handle(request.job, request.limits) });
  });
  process.send!({ ready: true });
}
