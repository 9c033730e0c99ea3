/**
 * How a run of one package ended, the one outcome type every layer uses (the engine's result, the
 * pipeline's, the deploy record, the action's result JSON, the PR comment): `success`; `failed` (objects
 * failed, timed out or were blocked: `failed` in src/apply/run-result.ts); `error` (a fatal error: nothing
 * changed, or the run was cancelled).
 */
export type RunOutcome = 'success' | 'failed' | 'error';

/**
 * The contract's exit codes, and the only place an outcome becomes one: 0 success, 1 fatal error (nothing
 * changed, or cancelled), 3 objects failed, timed out or were blocked.
 */
export function exitCodeOf(outcome: RunOutcome): 0 | 1 | 3 {
  if (outcome === 'error') return 1;
  return outcome === 'failed' ? 3 : 0;
}
