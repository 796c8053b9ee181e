import { renderInSandbox, type SandboxJob, type SandboxLimits } from './renderInSandbox.js';

/**
 * A renderer process of the TemplatePool: renders one job at a time, each in a fresh sandbox
 * context, within the job's time limit. The pool starts it with an empty environment, a heap
 * limit and code generation from strings disallowed for the whole process, and replaces it
 * if it dies (out of memory, for one) or runs past the pool's own deadline.
 */
interface RenderRequest {
  id: number;
  job: SandboxJob;
  limits: SandboxLimits;
}

// A rejected promise inside a sandbox (nothing there should make one) must not end the process.
process.on('unhandledRejection', () => {});
// The pool going away (the service stopped or crashed) ends its renderers too.
process.on('disconnect', () => process.exit(0));

process.on('message', (request: RenderRequest) => {
  process.send!({ id: request.id, result: renderInSandbox(request.job, request.limits) });
});
// Loading takes a while (longer from the TypeScript sources): the pool counts a job's time from here on.
process.send!({ ready: true });
