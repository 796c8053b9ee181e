/**
 * A signal aborted when `parent` aborts (with its reason) or after `ms` (with the reason
 * AbortSignal.timeout() gives: a DOMException named TimeoutError), whichever comes first.
 * dispose() detaches it from `parent` and clears the timer. Unlike
 * AbortSignal.any([parent, AbortSignal.timeout(ms)]), nothing stays attached to a
 * long-lived parent afterwards (Node 20 keeps each such composite as a dependant of its
 * sources: about 100 bytes per call, for a look-up made every few seconds). The timer
 * does not hold the process open, as AbortSignal.timeout()'s does not.
 */
export function boundedSignal(parent: AbortSignal, ms: number): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, dispose: () => {} };
  }
  const dispose = () => {
    clearTimeout(timer);
    parent.removeEventListener('abort', onParentAbort);
  };
  const onParentAbort = () => {
    dispose();
    controller.abort(parent.reason);
  };
  const timer = setTimeout(() => {
    dispose();
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, ms);
  timer.unref();
  parent.addEventListener('abort', onParentAbort, { once: true });
  return { signal: controller.signal, dispose };
}
