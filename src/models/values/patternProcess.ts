import { servePoolJobs } from '../../templates/poolProcess.js';
import type { SandboxJob, SandboxResult } from '../../templates/renderInSandbox.js';
import { matchesAtStart, programSize, programSizeProblem, storedPatternProblem } from './storedPattern.js';

/**
 * A process of the pattern checker's TemplatePool (patternChecks.ts): matches values
 * against stored patterns off the service's event loop, so a check that takes long (a large
 * RE2 program against a long value) costs its own job, stopped at the pool's deadline by
 * killing this process, never the service's requests. It speaks the renderer's protocol:
 * each "template" of a job is one check's pattern, named by the index of its value in
 * the context `{values}` (the pool may send a job's templates one by one with the same
 * context, to learn which reached a limit); each output is `{matched, size}` as JSON
 * text, the size (the pattern's program) telling the service whether it may check that
 * pattern inline next time.
 */
function check(job: SandboxJob): SandboxResult {
  const { values } = JSON.parse(job.contextJson) as { values: string[] | null };
  // No values: the patterns are to be stored, each output `{problem, size}` (PatternChecker.patternProblem).
  if (values === null) {
    const outputs = job.templates.map(({ code }) =>
      JSON.stringify({ problem: storedPatternProblem(code) ?? programSizeProblem(code), size: programSize(code) }),
    );
    return { ok: true, outputs };
  }
  const outputs = job.templates.map(({ name, code }) =>
    JSON.stringify({ matched: matchesAtStart(code, values[Number(name)] ?? ''), size: programSize(code) }),
  );
  return { ok: true, outputs };
}

servePoolJobs(check);
