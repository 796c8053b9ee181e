import { parentPort } from 'node:worker_threads';
import { renderInSandbox, type SandboxJob } from './renderInSandbox.js';

/**
 * A renderer thread of the TemplatePool: renders one job at a time, each in a fresh sandbox
 * context, within the job's time limit. The pool gives it an empty environment and a heap
 * limit, and replaces it if it runs out of memory or past the pool's own deadline.
 */
interface WorkerRequest {
  id: number;
  job: SandboxJob;
  timeoutMs: number;
}

// A rejected promise inside a sandbox (nothing there should make one) must not end the thread.
process.on('unhandledRejection', () => {});

parentPort!.on('message', (request: WorkerRequest) => {
  parentPort!.postMessage({ id: request.id, result: renderInSandbox(request.job, request.timeoutMs) });
});
