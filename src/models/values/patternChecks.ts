/**
 * Values checked against stored patterns (custom fields' `validation_regex`) without
 * holding the event loop. RE2 matches in time linear in the value, but also in the
 * pattern's compiled program: a 28-character pattern of 5,000 instructions takes seconds
 * against 10,000 characters (bench/regexCost.bench.ts). So a check runs inline only when
 * its cost (characters × instructions) is known to be small; any other runs in a process
 * of its own (TemplatePool's machinery: an empty environment, a heap limit, killed and
 * replaced past the time limit), and one that reaches a limit is answered as such.
 */
import { WriterUnavailableError } from '../../errors/requestErrors.js';
import { TemplateBusyError, TemplateError } from '../../templates/TemplateError.js';
import { TemplatePool } from '../../templates/TemplatePool.js';
import { knownProgramSize, matchesAtStart, MAX_PROGRAM_SIZE, storedPatternProblem, tooLarge } from './storedPattern.js';

/** One value to match at its start against one stored pattern (Python's `re.match`). */
export interface PatternCheck {
  pattern: string;
  value: string;
}

/** A check stopped at a limit: the sentence says which ("ran past its time limit (10000 ms)"). */
export interface PatternLimit {
  limit: string;
}

/**
 * Whether each value matched, or the limit its check reached; null: not checked, as another
 * check of the same call reached a limit (which refuses the write anyway).
 */
export type PatternVerdict = boolean | PatternLimit | null;

export interface PatternChecker {
  /** The verdicts in the order of the checks; those of one call go off the event loop together. */
  matchAll(checks: PatternCheck[]): Promise<PatternVerdict[]>;
  /**
   * Why a custom field may not store the pattern (storedPatternProblem, then
   * programSizeProblem), as a 400's sentence; null when it may. Compiled off the event loop
   * unless this process knows its size: a 500-character pattern may compile to 100,000
   * instructions, half a second of compiling.
   */
  patternProblem(pattern: string): Promise<string | null>;
}

/** Every checking process busy and its queue full: a 503, retried shortly. */
function busy(): WriterUnavailableError {
  return new WriterUnavailableError(
    'the pattern checker is busy',
    1,
    false,
    'The service is busy checking values; retry shortly.',
  );
}

/**
 * Characters × instructions matched inline: a few milliseconds of the event loop at the
 * worst measured cost (bench/regexCost.bench.ts, on the reference machine under load): RE2's
 * DFA building a new state at every character of a value it has not seen (`.*a.{20}$`
 * against random a's and b's), 200 to 400 ns a character and instruction (690 with the code
 * not yet optimised); its NFA, once the DFA gives up, 40 to 100. Ordinary patterns (tens of
 * instructions) check values of hundreds of characters inline; longer ones go to the process.
 */
export const INLINE_BUDGET = 10_000;

export interface PatternLimits {
  /** Wall-clock time one call's off-thread checks may take (TEMPLATE_TIMEOUT). */
  timeoutMs: number;
  /** Heap of the checking process (TEMPLATE_MEMORY_MB). */
  memoryMb: number;
}

/**
 * Program sizes learnt from the checking process, for patterns this process has not
 * compiled (stored before it started): one whose program is small enough is then compiled
 * here (at most MAX_INLINE_PROGRAM instructions: milliseconds) and checked inline.
 */
const learntSizes = new Map<string, number>();
const LEARNT_SIZES = 1_000;

/**
 * The largest program compiled on the event loop: a custom field's (compiling takes about
 * 5 µs an instruction: 100,000 instructions, which a 500-character pattern can reach, took
 * half a second; a pattern stored before the limit may be that large).
 */
const MAX_INLINE_PROGRAM = MAX_PROGRAM_SIZE;

function learn(pattern: string, size: number): void {
  learntSizes.set(pattern, size);
  if (learntSizes.size > LEARNT_SIZES) learntSizes.delete(learntSizes.keys().next().value!);
}

/** Whether a check is known to be cheap: a program compiled here or learnt as small, and a short enough value. */
function isInline({ pattern, value }: PatternCheck): boolean {
  const size = knownProgramSize(pattern) ?? learntSizes.get(pattern) ?? null;
  return size !== null && size <= MAX_INLINE_PROGRAM && value.length * size <= INLINE_BUDGET;
}

export class BoundedPatternChecker implements PatternChecker {
  private readonly pool: TemplatePool;

  constructor(limits: PatternLimits) {
    // One process: the writer decides one request at a time, and a request's checks go together.
    const settings = { ...limits, outputMb: 1, workers: 1, queue: 1_000 };
    this.pool = new TemplatePool(settings, new URL('./patternProcess.js', import.meta.url));
  }

  async patternProblem(pattern: string): Promise<string | null> {
    const size = knownProgramSize(pattern) ?? learntSizes.get(pattern) ?? null;
    // Known and small: compiled here again at worst (milliseconds); known and large: not compiled.
    if (size !== null && size <= MAX_INLINE_PROGRAM) return storedPatternProblem(pattern);
    if (size !== null && size > MAX_PROGRAM_SIZE) return tooLarge(pattern, size);
    try {
      const [output] = await this.pool.render({ templates: [{ name: '0', code: pattern }], context: { values: null } });
      const { problem, size: learnt } = JSON.parse(output!) as { problem: string | null; size: number };
      if (learnt > 0) learn(pattern, learnt);
      return problem;
    } catch (error) {
      if (error instanceof TemplateBusyError) throw busy();
      if (!(error instanceof TemplateError)) throw error;
      return `${pattern} could not be compiled: compiling it ${error.message}.`;
    }
  }

  async matchAll(checks: PatternCheck[]): Promise<PatternVerdict[]> {
    const inline = checks.map(isInline);
    const verdicts: PatternVerdict[] = checks.map(
      (check, i) => inline[i]! && matchesAtStart(check.pattern, check.value),
    );
    const isolated = checks.flatMap((_check, i) => (inline[i] ? [] : [i]));
    if (isolated.length === 0) return verdicts;
    // Each template is named by its value's place in the context (see patternProcess.ts).
    const templates = isolated.map((i, k) => ({ name: String(k), code: checks[i]!.pattern }));
    const context = { values: isolated.map((i) => checks[i]!.value) };
    try {
      const outputs = await this.pool.render({ templates, context });
      outputs.forEach((output, k) => {
        const { matched, size } = JSON.parse(output) as { matched: boolean; size: number };
        const i = isolated[k]!;
        verdicts[i] = matched;
        learn(checks[i]!.pattern, size);
      });
      return verdicts;
    } catch (error) {
      if (error instanceof TemplateBusyError) throw busy();
      if (!(error instanceof TemplateError)) throw error; // the pool closed as the service stops
      // A limit (or the process dying under the check): the pool names the check (a killed
      // job is sent again check by check to learn which). That one is answered with it; the
      // others sent with it are left unchecked.
      const at = isolated[Number(error.template)] ?? isolated[0]!;
      for (const i of isolated) verdicts[i] = i === at ? { limit: error.message } : null;
      return verdicts;
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The limits when none are configured: TEMPLATE_TIMEOUT's and TEMPLATE_MEMORY_MB's defaults. */
const DEFAULT_LIMITS: PatternLimits = { timeoutMs: 10_000, memoryMb: 256 };
let shared: BoundedPatternChecker | null = null;

/**
 * The checker of decisions given none (the service gives its own, with its configured
 * limits): started on first use; its process never keeps this one alive.
 */
export function sharedPatternChecker(): PatternChecker {
  return (shared ??= new BoundedPatternChecker(DEFAULT_LIMITS));
}
