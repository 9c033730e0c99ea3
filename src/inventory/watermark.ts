import { createHash } from 'node:crypto';
import type { KubeObject } from '../common/kube-object.js';
import { KubeApiError } from '../kube/api-error.js';
import type { ClusterClient } from '../kube/cluster-client.js';
import type { InventoryRef } from './inventory-types.js';

/**
 * The watermark of a branch's apply jobs in one cluster: a ConfigMap, in the job's default namespace,
 * keyed by repository, branch and `comment-key` (so a `mode: resolve` job and the matrix jobs it fans out
 * to, each applying one package, share it). It lists the packages catch-up knows (present when it was
 * first written, or applied successfully since), so a package with no deploy record is known to be new
 * (not listed: it runs) or not (listed, since destroyed or deployed otherwise: it does not), and a listed
 * package gone from the checkout was deleted. It also holds the packages whose last run failed before any
 * write (no deploy record says so), so catch-up does not retry them until they change, and the last
 * commit a run applied completely.
 */

export const WatermarkLabel = 'kpt-live-action.dev/watermark';
const Annotation = {
  repository: 'kpt-live-action.dev/repository',
  branch: 'kpt-live-action.dev/branch',
  commentKey: 'kpt-live-action.dev/comment-key',
};

/** Which job a watermark belongs to. */
export interface WatermarkKey {
  /** `owner/repo`. */
  repository: string;
  branch: string;
  commentKey: string;
}

/** A package whose last run failed before any write, at this tree. */
export interface HeldMark {
  /** The tree that failed; '' for a deleted package whose removal was refused or failed. */
  tree: string;
  commit: string;
  reason: string;
  /** When it failed (ISO time): a later successful apply of the package releases it. */
  at: string;
  /** The removal was refused because `destroy-removed-packages` was off: turning it on releases it. */
  removalRefused?: boolean;
}

export interface Watermark {
  /** The last commit at which every package of a run succeeded; absent until one did. */
  commit?: string;
  /** The units catch-up knows, with their inventories (a deleted one stays until its removal succeeds). */
  units: Record<string, InventoryRef>;
  held: Record<string, HeldMark>;
  /** The run that wrote it (a workflow run URL). */
  run?: string;
  updatedAt?: string;
}

/** The stored watermark and the version to update it with. */
export interface StoredWatermark {
  watermark: Watermark;
  resourceVersion?: string;
}

/** `kpt-live-watermark-<12 hex>`: the key hashed, so any branch name or comment key fits a name. */
export function watermarkName(key: WatermarkKey): string {
  const text = [key.repository, key.branch, key.commentKey].join('\n');
  return `kpt-live-watermark-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The watermark a ConfigMap holds; undefined when its data is not one (left alone, never overwritten blindly). */
export function parseWatermark(cm: KubeObject): Watermark | undefined {
  const text = isRecord(cm.data) ? cm.data.watermark : undefined;
  if (typeof text !== 'string') return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(v) || !isRecord(v.units) || !isRecord(v.held)) return undefined;
  if (v.commit !== undefined && typeof v.commit !== 'string') return undefined;
  return v as unknown as Watermark;
}

const configMaps = async (client: ClusterClient) => {
  const info = await client.resolve('v1', 'ConfigMap');
  if (!info) throw new Error('the cluster does not serve v1 ConfigMaps');
  return info;
};

/**
 * Reads the job's watermark. Undefined when there is none yet; throws when it cannot be read (the
 * caller falls back to the push's own change and says so).
 */
export async function readWatermark(
  client: ClusterClient,
  namespace: string,
  key: WatermarkKey,
): Promise<StoredWatermark | undefined> {
  await configMaps(client);
  const name = watermarkName(key);
  const cm = await client.get({ apiVersion: 'v1', group: '', kind: 'ConfigMap', namespace, name });
  if (!cm) return undefined;
  const watermark = parseWatermark(cm);
  if (!watermark) throw new Error(`ConfigMap ${namespace}/${name} does not hold a kpt-live-action watermark`);
  return { watermark, resourceVersion: cm.metadata.resourceVersion };
}

/**
 * Stores the watermark: a create when there was none, else an update of the version read (a 409 means
 * another run stored one meanwhile: `conflict`; the caller reads it again and merges).
 */
export async function writeWatermark(
  client: ClusterClient,
  namespace: string,
  key: WatermarkKey,
  watermark: Watermark,
  resourceVersion: string | undefined,
): Promise<'written' | 'conflict'> {
  const name = watermarkName(key);
  const cm: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace,
      labels: { [WatermarkLabel]: name.slice('kpt-live-watermark-'.length) },
      annotations: {
        [Annotation.repository]: key.repository,
        [Annotation.branch]: key.branch,
        [Annotation.commentKey]: key.commentKey,
      },
      ...(resourceVersion ? { resourceVersion } : {}),
    },
    data: { watermark: JSON.stringify(watermark) },
  };
  try {
    if (resourceVersion) await client.replace(cm);
    else await client.create(cm);
    return 'written';
  } catch (err) {
    if (err instanceof KubeApiError && err.code === 409) return 'conflict';
    throw err;
  }
}
