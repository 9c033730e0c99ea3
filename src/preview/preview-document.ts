import { DecidedOn, type ObjectOutcome, type RunResult } from '../apply/run-result.js';
import { idKey, shortName } from '../common/object-id.js';
import { loadYaml } from '../startup/yaml-module.js';
import { runSecretValues } from './object-changes.js';
import { type PreviewObjectOptions, previewObjectOf } from './preview-object.js';
import { emptySummary, type PreviewDocument, type PreviewObject } from './types.js';

export interface PreviewDocumentOptions {
  package: string;
  allowSkipped: boolean;
  fieldManager: string;
  context?: Partial<PreviewDocument['context']>;
}

/**
 * The preview document of a dry run: what each object's recorded decision says apply would do, in the
 * walk's order (apply waves, then prune waves), with the counts and the waves for the graph. A view: it
 * asks nothing of the cluster.
 */
export async function previewDocument(run: RunResult, o: PreviewDocumentOptions): Promise<PreviewDocument> {
  const objects = await previewObjects(run.objects, run, o);
  const summary = emptySummary();
  for (const obj of objects) {
    summary[obj.action]++;
    if (obj.blocked) summary.blocked++;
  }
  const plan = run.plan;
  return {
    package: o.package,
    summary,
    objects,
    waves: (plan?.applyWaves ?? []).map((w) => w.map(shortName)),
    edges: (plan?.edges ?? [])
      .filter((e) => !e.implicit)
      .map((e) => ({ from: shortName(e.from), to: shortName(e.to) })),
    context: {
      fieldManager: o.fieldManager,
      ...o.context,
      durationMs: run.durationMs,
    },
  };
}

/** The preview objects of a run's outcomes (those it decided), Secret values redacted. */
export async function previewObjects(
  outcomes: readonly ObjectOutcome[],
  run: Pick<RunResult, 'plan'>,
  o: Pick<PreviewObjectOptions, 'allowSkipped' | 'fieldManager'>,
): Promise<PreviewObject[]> {
  await loadYaml(); // the diffs render YAML
  const decided = outcomes.flatMap((x) => x[DecidedOn] ?? []);
  const secretValues = runSecretValues(
    decided.flatMap((x) => x.manifest ?? []),
    decided.map((x) => x.live),
  );
  const pruneWave = new Map<string, number>();
  for (const [i, wave] of (run.plan?.pruneWaves ?? []).entries())
    for (const id of wave) pruneWave.set(idKey(id), i + 1);
  return outcomes.flatMap((x) => {
    const obj = previewObjectOf(x, { ...o, secretValues, pruneWave: pruneWave.get(idKey(x.id)) });
    return obj ? [obj] : [];
  });
}
