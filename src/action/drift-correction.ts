import { packageTrees } from '../changes/tree-hash.js';
import { correctionFailed } from '../drift/correction.js';
import { type HeldMark, readWatermark } from '../inventory/watermark.js';
import type { Connection } from '../kube/connect.js';
import {
  type CorrectionRun,
  correctionWithoutApply,
  reapply,
  skippedCorrection,
} from '../pipeline/drift-correction.js';
import type { DriftRunResult } from '../pipeline/drift-package.js';
import { PackageLoop, packagesAtOnce } from '../pipeline/package-concurrency.js';
import { packageSecretValues } from '../pipeline/run-package.js';
import { scrub } from '../preview/redact.js';
import { correctionWords } from '../report/drift-correction.js';
import { branchOf } from './catch-up-selection.js';
import type { EventContext } from './github/index.js';
import type { ActionInputs } from './inputs.js';
import { eventLogger, reportPackage } from './report-package.js';
import * as core from './toolkit.js';

export interface CorrectionContext {
  inputs: ActionInputs;
  ctx: EventContext;
  repoRoot: string;
  conn: Connection;
  signal: AbortSignal;
}

/**
 * `drift-correct: true`: each drifted package re-applied, by apply's package loop rule (one at a time,
 * `package-concurrency` for more; none after a failed one unless `keep-going`), each in a log group with
 * apply's event lines; held packages and status drift reported, not re-applied. Sets each result's
 * `correction`; returns the job summary section of each apply that ran (by path), written after the drift
 * section. Runs after every check, so no lock is taken while GitHub is asked or told anything.
 */
export async function correctDriftedPackages(
  results: readonly DriftRunResult[],
  c: CorrectionContext,
): Promise<Map<string, string>> {
  const summaries = new Map<string, string>();
  const drifted = results.filter((r) => r.outcome === 'drifted');
  if (drifted.length === 0) {
    if (results.length > 0) core.info('drift-correct: nothing drifted, nothing to correct');
    return summaries;
  }
  const { inputs, ctx, conn } = c;
  const marks = await heldMarks(c);
  const trees = await packageTrees(
    c.repoRoot,
    'HEAD',
    drifted.map((r) => r.path),
  );
  const retry = (path: string) =>
    `not corrected until ${path} changes or an apply of it succeeds (a workflow_dispatch apply naming it in \`packages\`)`;
  // held packages and status drift are reported, not re-applied: only the others enter apply's loop
  const toApply: DriftRunResult[] = [];
  for (const r of drifted) {
    const left = await correctionWithoutApply(conn.client, r, {
      dir: r.path,
      repoRoot: c.repoRoot,
      mark: marks[r.path],
      retry: retry(r.path),
    });
    if (!left) {
      toApply.push(r);
      continue;
    }
    left.reason &&= scrub(left.reason, packageSecretValues(r));
    core.info(`${r.path}: ${correctionWords(left)}`);
    core.warning(correctionWords(left), {
      title: `drift: ${r.path} ${left.result === 'held' ? 'held' : 'not corrected'}`,
    });
  }
  if (toApply.length === 0) return summaries;
  const atOnce = Math.min(packagesAtOnce('apply', inputs.packageConcurrency), toApply.length);
  const correctOne = async (r: DriftRunResult): Promise<CorrectionRun> => {
    // one package at a time logs as it goes; several at once keep each package's lines together
    const lines: string[] | undefined = atOnce > 1 ? [] : undefined;
    const log = (line: string) => (lines ? lines.push(line) : core.info(line));
    if (!lines) core.startGroup(`correct ${r.path}`);
    const tree = trees.get(r.path);
    const fix = await reapply(conn.client, r, {
      dir: r.path,
      repoRoot: c.repoRoot,
      defaultNamespace: inputs.namespace || conn.access.namespace,
      options: inputs.run,
      emit: eventLogger(log),
      signal: c.signal,
      onProgress: log,
      history: {
        commit: ctx.sha,
        ...(tree ? { tree } : {}),
        trigger: ctx.runUrl,
        keep: inputs.historyLimit,
        allowStale: inputs.allowStale,
      },
    });
    if (lines) {
      core.startGroup(`correct ${r.path}`);
      for (const line of lines) core.info(line);
    }
    const secrets = packageSecretValues(fix.run);
    fix.correction.reason &&= scrub(fix.correction.reason, secrets);
    if (fix.correction.failed) fix.correction.failed = fix.correction.failed.map((f) => scrub(f, secrets));
    core.info(`${r.path}: ${correctionWords(fix.correction)}`);
    core.endGroup();
    // the apply's own summary section and annotations (its error, each failed object at file:line)
    summaries.set(r.path, reportPackage(fix.run, secrets));
    if (fix.correction.result === 'corrected')
      core.notice(correctionWords(fix.correction), { title: `drift: ${r.path} corrected` });
    return fix;
  };
  const rule = {
    mode: 'apply',
    packageConcurrency: inputs.packageConcurrency,
    keepGoing: inputs.keepGoing,
    signal: c.signal,
  };
  const loop = new PackageLoop(toApply, rule, (r) => r.path);
  await Promise.all(
    loop.lanes().map(async () => {
      for (let next = loop.take(); next; next = loop.take())
        loop.finished(next, !correctionFailed((await correctOne(next.item)).correction));
    }),
  );
  for (const e of loop.skipped()) {
    skippedCorrection(e.item, e.skipped);
    core.error(`${e.item.path}: drift not corrected: ${e.skipped}`, {
      title: `kpt-live-action: ${e.item.path} not corrected`,
    });
  }
  return summaries;
}

/**
 * The apply job's watermark marks (packages whose apply failed before any write, which no deploy record
 * tells): read from the same ConfigMap catch-up keeps for this repository, branch and `comment-key`. None
 * when there is no watermark or it cannot be read.
 */
async function heldMarks(c: CorrectionContext): Promise<Record<string, HeldMark>> {
  const namespace = c.inputs.namespace || c.conn.access.namespace;
  try {
    const stored = await readWatermark(c.conn.client, namespace, {
      repository: `${c.ctx.owner}/${c.ctx.repo}`,
      branch: branchOf(c.ctx.ref),
      commentKey: c.inputs.commentKey,
    });
    return stored?.watermark.held ?? {};
  } catch (err) {
    core.info(
      `drift-correct: the apply job's watermark could not be read (${(err as Error).message}): holds are read from the deploy records only`,
    );
    return {};
  }
}
