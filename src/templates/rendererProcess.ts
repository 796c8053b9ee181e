import { servePoolJobs } from './poolProcess.js';
import { renderInSandbox } from './renderInSandbox.js';

/**
 * A renderer process of the TemplatePool: renders one job at a time, each in a fresh sandbox
 * context, within the job's time limit. The pool starts it with an empty environment, a heap
 * limit and code generation from strings disallowed for the whole process, and replaces it
 * if it dies (out of memory, for one) or runs past the pool's own deadline.
 */

// A rejected promise inside a sandbox (nothing there should make one) must not end the process.
process.on('unhandledRejection', () => {});

servePoolJobs(renderInSandbox);
