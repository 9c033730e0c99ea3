import { type KubeObject, splitApiVersion } from '../common/kube-object.js';
import { StatusComputeError } from './fields.js';
import { genericStatus, readyConditionStatus } from './generic.js';
import { alwaysReadyStatus } from './kinds/always-ready.js';
import { configConnectorStatus, isConfigConnector } from './kinds/config-connector.js';
import { crdStatus } from './kinds/crd.js';
import { daemonSetStatus } from './kinds/daemonset.js';
import { deploymentStatus } from './kinds/deployment.js';
import { jobStatus } from './kinds/job.js';
import { pdbStatus } from './kinds/pdb.js';
import { podStatus } from './kinds/pod.js';
import { pvcStatus } from './kinds/pvc.js';
import { replicaSetStatus } from './kinds/replicaset.js';
import { serviceStatus } from './kinds/service.js';
import { statefulSetStatus } from './kinds/statefulset.js';
import type { KindRule, StatusOptions } from './status-options.js';
import type { StatusResult } from './types.js';

/** cli-utils `legacyTypes`: the built-in kinds with rules of their own, keyed `group/Kind` (core: `Kind`). */
const kindRules: ReadonlyMap<string, KindRule> = new Map([
  ['Service', serviceStatus],
  ['Pod', podStatus],
  ['Secret', alwaysReadyStatus],
  ['ConfigMap', alwaysReadyStatus],
  ['PersistentVolumeClaim', pvcStatus],
  ['apps/StatefulSet', statefulSetStatus],
  ['apps/DaemonSet', daemonSetStatus],
  ['extensions/DaemonSet', daemonSetStatus],
  ['apps/Deployment', deploymentStatus],
  ['extensions/Deployment', deploymentStatus],
  ['apps/ReplicaSet', replicaSetStatus],
  ['extensions/ReplicaSet', replicaSetStatus],
  ['policy/PodDisruptionBudget', pdbStatus],
  ['batch/CronJob', alwaysReadyStatus],
  ['batch/Job', jobStatus],
  ['apiextensions.k8s.io/CustomResourceDefinition', crdStatus],
]);

/** The key kstatus files kind rules under: `apps/Deployment`, or just `Pod` for the core group. */
export function kindKey(obj: KubeObject): string {
  const { group } = splitApiVersion(obj.apiVersion);
  return group ? `${group}/${obj.kind}` : obj.kind;
}

/** True when kstatus has a rule for this kind, i.e. its `Ready` condition is never consulted. */
export function hasKindRule(obj: KubeObject): boolean {
  return kindRules.has(kindKey(obj));
}

/**
 * An object's reconcile status exactly as `kpt live apply` computes it (cli-utils kstatus `Compute`,
 * plus kpt's Config Connector reader), so a run waits for the same things kpt waits for and prints the
 * same messages. Order: generic rules (deletion, observedGeneration, Reconciling/Stalled), then the
 * kind's rule, then the `Ready` condition, else Current. Fields of the wrong shape give `Unknown` with
 * the reason, as cli-utils' status readers report a compute error. Pure: reads only `obj` and `options`.
 */
export function computeStatus(obj: KubeObject, options: StatusOptions = {}): StatusResult {
  try {
    if (isConfigConnector(obj)) return configConnectorStatus(obj);
    const generic = genericStatus(obj);
    if (generic) return generic;
    const rule = kindRules.get(kindKey(obj));
    if (rule) return rule(obj, options);
    return readyConditionStatus(obj) ?? { status: 'Current', message: 'Resource is current' };
  } catch (err) {
    if (err instanceof StatusComputeError) return { status: 'Unknown', message: err.message };
    throw err;
  }
}
