/** Signals Node keeps as dependants of `signal`: what each AbortSignal.any() over it adds, for as long as `signal` lives. */
export function dependants(signal: AbortSignal): number {
  const key = Object.getOwnPropertySymbols(signal).find((s) => s.description === 'kDependantSignals');
  return key ? ((signal as unknown as Record<symbol, Set<unknown> | undefined>)[key]?.size ?? 0) : 0;
}
