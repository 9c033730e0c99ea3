import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '../common/kube-object.js';
import { KubeApiError } from '../kube/api-error.js';
import type { ClusterClient, ObjectRef } from '../kube/cluster-client.js';
import type { InventoryRef } from './inventory-types.js';

export interface InventoryLock {
  readonly holder: string;
  release(): Promise<void>;
}

export interface LockOptions {
  /** How long to wait for another run to finish. */
  timeoutMs: number;
  leaseSeconds?: number;
  /** Called once when we start waiting for another holder. */
  onWait?: (holder: string) => void;
  pollMs?: number;
  /** Stops waiting for another holder (the run was refused meanwhile): the promise rejects. */
  signal?: AbortSignal;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
}

/** `2026-11-22T16:07:07.123000Z`: the MicroTime format Lease fields need. */
function microTime(d = new Date()): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function lockName(inv: InventoryRef): string {
  return `kpt-live-action.${inv.name}`.slice(0, 253);
}

/**
 * One run at a time per inventory: a `coordination.k8s.io/v1` Lease named after the inventory, in its
 * namespace, held and renewed for the whole run. A second run waits up to `timeoutMs`, then fails naming
 * the holder; a crashed holder's lease expires after `leaseSeconds`.
 */
export async function acquireInventoryLock(
  client: ClusterClient,
  inv: InventoryRef,
  options: LockOptions,
): Promise<InventoryLock> {
  const leaseSeconds = options.leaseSeconds ?? 30;
  const holder = `${process.env.GITHUB_RUN_ID ? `run-${process.env.GITHUB_RUN_ID}` : hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const ref: ObjectRef = {
    apiVersion: 'coordination.k8s.io/v1',
    group: 'coordination.k8s.io',
    kind: 'Lease',
    namespace: inv.namespace,
    name: lockName(inv),
  };
  const start = Date.now();
  let waitedFor: string | undefined;
  let lease: KubeObject | undefined;
  // the lease is usually absent (every run deletes it): try to create it before reading it
  let firstTry = true;

  for (;;) {
    const existing = firstTry ? undefined : await client.get(ref);
    firstTry = false;
    const spec = (existing?.spec ?? {}) as LeaseSpec;
    const renewed = spec.renewTime ? Date.parse(spec.renewTime) : 0;
    const expired =
      !spec.holderIdentity || renewed + (spec.leaseDurationSeconds ?? leaseSeconds) * 1000 < Date.now();
    try {
      const now = microTime();
      const body: KubeObject = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: {
          name: ref.name,
          namespace: ref.namespace,
          resourceVersion: existing?.metadata.resourceVersion,
        },
        spec: {
          holderIdentity: holder,
          leaseDurationSeconds: leaseSeconds,
          acquireTime: now,
          renewTime: now,
        },
      };
      if (!existing) {
        delete body.metadata.resourceVersion;
        lease = await client.create(body);
        break;
      }
      if (expired) {
        lease = await client.replace(body);
        break;
      }
    } catch (err) {
      if (!(err instanceof KubeApiError && err.code === 409)) throw lockError(err, inv);
      continue; // someone else moved first: look again
    }
    if (waitedFor !== spec.holderIdentity) {
      waitedFor = spec.holderIdentity;
      options.onWait?.(spec.holderIdentity ?? '');
    }
    if (Date.now() - start > options.timeoutMs) {
      throw new Error(
        `inventory ${inv.namespace}/${inv.name} is locked by "${spec.holderIdentity}" (since ${spec.acquireTime}): ` +
          `another run is applying this package; waited ${Math.round((Date.now() - start) / 1000)}s. ` +
          'Re-run when it finishes (its lease expires on its own if that run died).',
      );
    }
    // rejects (AbortError) when the signal aborts: the run stopped waiting
    await sleep(options.pollMs ?? 1000, undefined, { signal: options.signal });
  }

  let current = lease;
  // renewals run one at a time, and release waits for one in flight: a DELETE carrying the resourceVersion
  // from before a renewal would fail (409) and leave the lease to block the next run until it expires
  let renewing: Promise<void> = Promise.resolve();
  const renew = setInterval(
    () => {
      renewing = renewing.then(async () => {
        try {
          const spec = { ...(current.spec as LeaseSpec), renewTime: microTime() };
          current = await client.replace({ ...current, spec });
        } catch {
          // the next renewal tries again; a lost lease shows up as a 409 on release
        }
      });
    },
    (leaseSeconds * 1000) / 3,
  );
  renew.unref();

  return {
    holder,
    async release() {
      clearInterval(renew);
      await renewing;
      try {
        await client.delete(ref, {
          uid: current.metadata.uid,
          resourceVersion: current.metadata.resourceVersion,
        });
      } catch {
        // someone else holds it now (ours expired): nothing of ours to release
      }
    },
  };
}

function lockError(err: unknown, inv: InventoryRef): Error {
  if (err instanceof KubeApiError && err.forbidden) {
    return new Error(
      `cannot take the apply lock (a Lease in namespace ${inv.namespace}): these credentials need get/create/update/delete ` +
        `on leases.coordination.k8s.io there. Server said: ${err.message}`,
    );
  }
  return err as Error;
}
