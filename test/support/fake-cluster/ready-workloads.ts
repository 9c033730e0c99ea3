import type { Reconciler } from './controllers.js';
import type { Json } from './store.js';

/**
 * A reconciler that makes workloads ready at once, as the controller-manager and kubelets of a healthy
 * cluster eventually do: Deployments, ReplicaSets, StatefulSets and DaemonSets report every replica
 * updated, ready and available for their current generation; PersistentVolumeClaims are Bound.
 * For kstatus waits that should end Current.
 */

export const readyWorkloads: Reconciler = (obj) => {
  const meta = obj.metadata as { generation?: number };
  const spec = (obj.spec ?? {}) as { replicas?: number };
  const replicas = spec.replicas ?? 1;
  const observedGeneration = meta.generation;
  switch (`${obj.apiVersion}/${obj.kind}`) {
    case 'apps/v1/Deployment':
      return {
        observedGeneration,
        replicas,
        updatedReplicas: replicas,
        readyReplicas: replicas,
        availableReplicas: replicas,
        conditions: [
          { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
          { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
        ],
      };
    case 'apps/v1/ReplicaSet':
      return {
        observedGeneration,
        replicas,
        readyReplicas: replicas,
        availableReplicas: replicas,
        fullyLabeledReplicas: replicas,
      };
    case 'apps/v1/StatefulSet':
      return {
        observedGeneration,
        replicas,
        readyReplicas: replicas,
        currentReplicas: replicas,
        updatedReplicas: replicas,
        availableReplicas: replicas,
      } satisfies Json;
    case 'apps/v1/DaemonSet':
      return {
        observedGeneration,
        desiredNumberScheduled: 1,
        currentNumberScheduled: 1,
        updatedNumberScheduled: 1,
        numberReady: 1,
        numberAvailable: 1,
        numberMisscheduled: 0,
      };
    case 'v1/PersistentVolumeClaim':
      return { phase: 'Bound' };
    default:
      return undefined;
  }
};
