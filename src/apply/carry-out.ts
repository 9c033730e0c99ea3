import type { KubeObject } from '../common/kube-object.js';
import { idKey, type ObjectId } from '../common/object-id.js';
import { UnknownKindError } from '../kube/cluster-client.js';
import type { ResourceInfo } from '../kube/discovery.js';
import { explainApplyError } from './apply-error.js';
import { type Decision, writeOutcome } from './decision.js';
import type { ApplyOperation } from './events.js';
import { withOwner } from './owner-lookup.js';
import { type Written, writeDecided } from './ownership-write.js';
import type { RunState } from './run-state.js';
import type { SkipReason } from './skip-reason.js';
import { deleteForReplace, immutableFields, updateStrategyOf } from './update-strategy.js';

/** What carrying out one object's decision did. */
export type Carried =
  | { status: 'Successful'; operation: ApplyOperation; object?: KubeObject; info?: ResourceInfo }
  | { status: 'Skipped'; skip: SkipReason }
  | { status: 'Failed'; error: string };

/**
 * Carries out a decision the pre-flight walk took (decide-object.ts), for real: nothing for an unchanged
 * object or a skip; the write for a create or a configure (the client-side takeover first); delete and
 * create for a replace. The write's own answer says what it did (the server skips a no-op write); an
 * immutable field it trips over is a replace when the object's strategy allows. Never throws.
 */
export async function carryOut(state: RunState, id: ObjectId, d: Decision): Promise<Carried> {
  const key = idKey(id);
  const live = state.live.get(key) ?? undefined;
  const manifest = state.manifests.get(key)!;
  try {
    if (d.action === 'replace') return await replace(state, live!, manifest, d.info);
    // nothing to write: what a dry run reports is what happens
    if (d.action !== 'create' && d.action !== 'configure') return await carriedInDryRun(state, d);
    const info = d.info ?? (await resolveNewKind(state, manifest));
    if (!info) throw new UnknownKindError(manifest.apiVersion, manifest.kind);
    let w: Written;
    try {
      w = await writeDecided(state, id, d);
    } catch (err) {
      const fields = immutableFields(err);
      const strategy = updateStrategyOf(manifest, state.options.defaultUpdateStrategy);
      if (live && fields && strategy === 'fallback-on-replace')
        return await replace(state, live, manifest, info);
      throw err;
    }
    if ('decided' in w) {
      // read again, the object needs no write after all (unchanged), or now fails (a co-owner's conflict)
      state.decisions.set(idKey(id), w.decided);
      return w.decided.action === 'replace'
        ? await replace(state, live!, manifest, info)
        : await carriedInDryRun(state, w.decided);
    }
    const moved = !!w.decision.takenOver || !!w.decision.ownership?.managedFields;
    return { status: 'Successful', operation: writeOutcome(live, w.written, moved), object: w.written, info };
  } catch (err) {
    return { status: 'Failed', error: explainApplyError(err).message };
  }
}

async function replace(
  state: RunState,
  live: KubeObject,
  manifest: KubeObject,
  info: ResourceInfo | undefined,
): Promise<Carried> {
  await deleteForReplace(state.client, live, state.options.pruneTimeoutMs);
  return { status: 'Successful', operation: 'replaced', object: await write(state, manifest), info };
}

/** A create after a delete: nobody else holds a field of a new object. */
function write(state: RunState, manifest: KubeObject): Promise<KubeObject> {
  return state.client.apply(manifest, {
    fieldManager: state.options.fieldManager,
    force: state.options.forceConflicts,
    dryRun: false,
  });
}

/**
 * Discovery for a kind whose CRD this run just established can lag for a moment: look again (refreshing
 * discovery) for up to 15 s before the apply reports the kind as unknown.
 */
async function resolveNewKind(state: RunState, manifest: KubeObject) {
  const deadline = Date.now() + 15_000;
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    const info = await state.client.resolve(manifest.apiVersion, manifest.kind);
    if (info) return info; // nearly always: looking through what was applied is for the rare miss
    const crdApplied = [...state.applied.keys()].some((k) =>
      k.endsWith('_apiextensions.k8s.io_CustomResourceDefinition'),
    );
    if (!crdApplied || Date.now() > deadline) return info;
    await new Promise((r) => setTimeout(r, delay));
    state.client.resetDiscovery();
  }
}

const DryOperation: Record<'create' | 'configure' | 'replace', ApplyOperation> = {
  create: 'created',
  configure: 'configured',
  replace: 'replaced',
};

/** What a dry run reports for a decision: what carrying it out would do, with no write. */
export async function carriedInDryRun(state: RunState, d: Decision): Promise<Carried> {
  switch (d.action) {
    case 'skip':
      if (d.blocked && d.skip) return { status: 'Skipped', skip: await withOwner(state, d.skip) };
      return { status: 'Successful', operation: 'skipped', info: d.info };
    case 'error':
      return { status: 'Failed', error: d.reason ?? 'rejected' };
    case 'unchanged':
      return { status: 'Successful', operation: 'unchanged', object: d.object, info: d.info };
    case 'create':
    case 'configure':
    case 'replace':
      return { status: 'Successful', operation: DryOperation[d.action], object: d.object, info: d.info };
    default:
      throw new Error(`internal error: ${d.action} is not an apply decision`);
  }
}
