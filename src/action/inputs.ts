import {
  defaultRunOptions,
  type PreflightMode,
  PreflightModes,
  type RunOptions,
  StatusPolicies,
  type StatusPolicy,
} from '../apply/run-options.js';
import { UpdateStrategies, type UpdateStrategy } from '../apply/update-strategy.js';
import { type ConflictSettings, conflictSettingsFrom } from '../common/conflict-settings.js';
import type { InventoryPolicy, PropagationPolicy } from '../common/constants.js';
import { parseDuration } from '../common/duration.js';
import type { OnFailure } from '../pipeline/rollback-report.js';
import * as core from './toolkit.js';

export const CommentModes = ['changes', 'always', 'never'] as const;
export type CommentMode = (typeof CommentModes)[number];
export const PlanDriftModes = ['warn', 'fail', 'ignore'] as const;
export type PlanDriftMode = (typeof PlanDriftModes)[number];
/** `comment-layout`: one comment per package, one combined comment per pull request, or chosen by count. */
export const CommentLayouts = ['auto', 'per-package', 'combined'] as const;
export type CommentLayout = (typeof CommentLayouts)[number];

export type ActionMode =
  | 'auto'
  | 'preview'
  | 'apply'
  | 'destroy'
  | 'status'
  | 'resolve'
  | 'drift'
  | 'rollback';

export const OnFailureModes = ['none', 'rollback'] as const;

/** Every input, parsed and validated up front (the only file that reads `core.getInput`). */
export interface ActionInputs {
  mode: ActionMode;
  packages: string[];
  kubeconfig: string;
  context: string;
  namespace: string;
  run: RunOptions;
  destroyRemovedPackages: boolean;
  /** When a pull request gets a preview comment: `changes` (default), `always`, `never`. */
  comment: CommentMode;
  /** Added to the comment marker so matrix jobs (one per cluster) keep one comment each; '' = none. */
  commentKey: string;
  /** One comment per package, one combined comment per pull request, or `auto` (by package count). */
  commentLayout: CommentLayout;
  /** After an apply on the default branch, add the result to the merged PR's comment. */
  commentOnApply: boolean;
  /** What to do when the plan about to be applied differs from the one the PR's comment reviewed. */
  planDrift: PlanDriftMode;
  githubToken: string;
  historyLimit: number;
  allowStale: boolean;
  /** Drift mode: one GitHub issue per drifted package (and comment key). */
  driftIssue: boolean;
  /** Drift mode: fail the step when drift is found (with driftCorrect: when drift remains after correction). */
  failOnDrift: boolean;
  /** Drift mode: re-apply each drifted package (not a held one, nor one with status drift only). */
  driftCorrect: boolean;
  /** Packages applied or destroyed at once (default 1: in order); previews run at least 8 at once. */
  packageConcurrency: number;
  /** apply/destroy: go on with the next packages after one that did not succeed. */
  keepGoing: boolean;
  /**
   * Where the packages (and their git history) are read, relative to the workspace; '' = the workspace.
   * A `pull_request_target` workflow checks the pull request's head out into a directory of its own and
   * names it here, keeping the workspace (the base branch) for the workflow's own files.
   */
  workingDirectory: string;
  /** `on-failure` and `rollback-prune`: what a failed apply does (and what the preview says it would do). */
  onFailure: OnFailure;
  /** `mode: rollback`: the commit of the successful deploy to return to ('' = `rollbackSteps` back). */
  rollbackTo: string;
  /** `mode: rollback`: how many successful deploys back (default 1: the one before the last). */
  rollbackSteps?: number;
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new Error(`Invalid input '${name}': "${value}" (accepted: ${allowed.join(', ')})`);
}

function bool(name: string, fallback: boolean): boolean {
  const v = core.getInput(name).trim();
  if (v === '') return fallback;
  if (['true', 'True', 'TRUE'].includes(v)) return true;
  if (['false', 'False', 'FALSE'].includes(v)) return false;
  throw new Error(`Invalid input '${name}': "${v}" (accepted: true, false)`);
}

/** `auto` (default), `all`, `off`; `true`/`false` as before the modes: every object / none. */
function preflightMode(v: string): PreflightMode {
  if (v === '') return 'auto';
  if (['true', 'True', 'TRUE'].includes(v)) return 'all';
  if (['false', 'False', 'FALSE'].includes(v)) return 'off';
  return oneOf('preflight', v, PreflightModes);
}

/** `changes` (default), `always`, `never`; `true`/`false` as before the modes: always / never. */
function commentMode(v: string): CommentMode {
  if (v === '') return 'changes';
  if (['true', 'True', 'TRUE'].includes(v)) return 'always';
  if (['false', 'False', 'FALSE'].includes(v)) return 'never';
  return oneOf('comment', v, CommentModes);
}

/**
 * The comment key goes into a hidden HTML comment (`<!-- ... key=K -->`): anything that could end it or
 * split the marker line is refused rather than encoded, so the key a user reads is the key that is stored.
 */
function commentKey(v: string): string {
  if (/-->|--!>|[\r\n]/.test(v) || v.includes('<!--')) {
    throw new Error(
      `Invalid input 'comment-key': ${JSON.stringify(v)} (it names the comment in a hidden HTML comment: use one line without "-->" or "<!--", e.g. \${{ matrix.cluster }})`,
    );
  }
  if (v.length > 100)
    throw new Error(`Invalid input 'comment-key': ${v.length} characters (at most 100, e.g. a cluster name)`);
  return v;
}

function duration(name: string, fallback: string): number {
  const v = core.getInput(name).trim() || fallback;
  const ms = parseDuration(v);
  if (ms === undefined)
    throw new Error(
      `Invalid input '${name}': "${v}" (expected a duration like 90s, 5m, 1h30m, or 0 for no limit)`,
    );
  return ms;
}

/** A list input: one entry per line (blank lines and `#` comments skipped). */
function lines(name: string): string[] {
  return core
    .getInput(name)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** `conflicts`, `conflicts-take`, `conflicts-keep` and `force-conflicts` together (they must agree). */
function conflictSettings(forceConflicts: boolean): ConflictSettings {
  try {
    return conflictSettingsFrom(
      {
        conflicts: core.getInput('conflicts'),
        forceConflicts,
        take: lines('conflicts-take'),
        keep: lines('conflicts-keep'),
      },
      {
        conflicts: "input 'conflicts'",
        forceConflicts: "input 'force-conflicts'",
        take: "input 'conflicts-take'",
        keep: "input 'conflicts-keep'",
      },
    );
  } catch (err) {
    throw new Error(`Invalid ${(err as Error).message}`);
  }
}

export function parseInputs(): ActionInputs {
  const mode = oneOf('mode', core.getInput('mode').trim() || 'auto', [
    'auto',
    'preview',
    'apply',
    'destroy',
    'status',
    'resolve',
    'drift',
    'rollback',
  ] as const);
  const wfc = core.getInput('wait-for-controller').trim();
  const waitForControllerMs = wfc === '' || wfc === 'false' ? 0 : parseDuration(wfc);
  if (waitForControllerMs === undefined) {
    throw new Error(
      `Invalid input 'wait-for-controller': "${wfc}" (expected a grace period like 15s, or empty for off)`,
    );
  }
  const conflicts = conflictSettings(bool('force-conflicts', false));
  const run = defaultRunOptions({
    fieldManager: core.getInput('field-manager').trim() || 'kpt-live-action',
    forceConflicts: conflicts.mode === 'force',
    conflicts,
    reconcileTimeoutMs: duration('reconcile-timeout', '5m'),
    prune: bool('prune', true),
    prunePropagationPolicy: oneOf<PropagationPolicy>(
      'prune-propagation-policy',
      core.getInput('prune-propagation-policy').trim() || 'Background',
      ['Background', 'Foreground', 'Orphan'],
    ),
    pruneTimeoutMs: duration('prune-timeout', '5m'),
    inventoryPolicy: oneOf<InventoryPolicy>(
      'inventory-policy',
      core.getInput('inventory-policy').trim() || 'strict',
      ['strict', 'adopt', 'force-adopt'],
    ),
    wait: bool('wait', true),
    waitForJobs: bool('wait-for-jobs', false),
    waitForControllerMs,
    failFast: bool('fail-fast', true),
    allowEmptyPrune: bool('allow-empty-prune', false),
    allowSkipped: bool('allow-skipped', false),
    exitEarly: bool('exit-early', false),
    preflight: preflightMode(core.getInput('preflight').trim()),
    defaultUpdateStrategy: oneOf<UpdateStrategy>(
      'apply-default-update-strategy',
      core.getInput('apply-default-update-strategy').trim(),
      UpdateStrategies,
    ),
    statusPolicy: oneOf<StatusPolicy>(
      'status-policy',
      core.getInput('status-policy').trim() || 'all',
      StatusPolicies,
    ),
  });
  const limitText = core.getInput('history-limit').trim() || '20';
  if (!/^\d+$/.test(limitText) || Number(limitText) < 1) {
    throw new Error(
      `Invalid input 'history-limit': "${limitText}" (expected a whole number of records to keep, at least 1)`,
    );
  }
  const concurrencyText = core.getInput('package-concurrency').trim() || '1';
  if (!/^\d+$/.test(concurrencyText) || Number(concurrencyText) < 1) {
    throw new Error(
      `Invalid input 'package-concurrency': "${concurrencyText}" (expected a whole number of packages at once, at least 1)`,
    );
  }
  const packages = lines('packages');
  const rollbackTo = core.getInput('rollback-to').trim();
  const stepsText = core.getInput('rollback-steps').trim();
  if (stepsText !== '' && (!/^\d+$/.test(stepsText) || Number(stepsText) < 1))
    throw new Error(
      `Invalid input 'rollback-steps': "${stepsText}" (expected a whole number of successful deploys back, at least 1)`,
    );
  if (rollbackTo !== '' && stepsText !== '')
    throw new Error("Invalid inputs 'rollback-to' and 'rollback-steps': give one of them");
  return {
    mode,
    packages,
    kubeconfig: core.getInput('kubeconfig'),
    context: core.getInput('context').trim(),
    namespace: core.getInput('namespace').trim(),
    run,
    destroyRemovedPackages: bool('destroy-removed-packages', false),
    comment: commentMode(core.getInput('comment').trim()),
    commentKey: commentKey(core.getInput('comment-key')),
    commentLayout: oneOf('comment-layout', core.getInput('comment-layout').trim() || 'auto', CommentLayouts),
    commentOnApply: bool('comment-on-apply', true),
    planDrift: oneOf('plan-drift', core.getInput('plan-drift').trim() || 'warn', PlanDriftModes),
    githubToken: core.getInput('github-token').trim(),
    historyLimit: Number(limitText),
    allowStale: bool('allow-stale', false),
    driftIssue: bool('drift-issue', false),
    failOnDrift: bool('fail-on-drift', false),
    driftCorrect: bool('drift-correct', false),
    packageConcurrency: Number(concurrencyText),
    keepGoing: bool('keep-going', false),
    workingDirectory: core.getInput('working-directory').trim(),
    onFailure: {
      rollback:
        oneOf('on-failure', core.getInput('on-failure').trim() || 'none', OnFailureModes) === 'rollback',
      prune: bool('rollback-prune', false),
    },
    rollbackTo,
    ...(stepsText ? { rollbackSteps: Number(stepsText) } : {}),
  };
}
