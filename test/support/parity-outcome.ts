import type { KubeObject } from '../../src/common/kube-object.js';
import { KubeApiError } from '../../src/kube/api-error.js';
import type { ClusterClient } from '../../src/kube/cluster-client.js';
import type { ParityCase } from './parity-cases.js';

const uid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

type Outcome = Record<string, unknown>;

/** What a case ends in, in the terms the parity test compares. */
export async function outcomeOf(c: ClusterClient, ns: string, kase: ParityCase): Promise<Outcome> {
  const ref = kase.ref(ns);
  await kase.setup?.(c, ns);
  const before = await c.get(ref);
  let answer: unknown;
  let result: Outcome;
  try {
    answer = await kase.act(c, ns);
    result = { ok: typeof answer === 'string' ? answer : true };
  } catch (err) {
    if (!(err instanceof KubeApiError)) throw err;
    const causes = err.causes
      .map((cause) => ({ ...cause, message: cause.message?.replace(uid, '<uid>') }))
      .sort((a, b) => `${a.field}${a.message}`.localeCompare(`${b.field}${b.message}`));
    result = { code: err.code, reason: err.reason, message: err.message.replace(uid, '<uid>'), causes };
  }
  const after = await c.get(ref);
  const isConfigMap = ref.kind === 'ConfigMap';
  const answered = typeof answer === 'object' ? (answer as KubeObject) : undefined;
  const managers = (o?: KubeObject) =>
    ((o?.metadata.managedFields ?? []) as { manager: string; operation: string; subresource?: string }[])
      // the controller-manager writes a Deployment's status at its own pace
      .filter((e) => e.manager !== 'kube-controller-manager')
      .map((e) => `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}`)
      .sort();
  const entries = (o?: KubeObject) =>
    ((o?.metadata.managedFields ?? []) as Record<string, unknown>[]).map(({ time: _t, ...e }) => e);
  return {
    result,
    exists: !!after,
    managers: managers(after),
    answerManagers: managers(answered),
    generation: after?.metadata.generation,
    deleting: !!after?.metadata.deletionTimestamp,
    finalizers: after?.metadata.finalizers,
    ...(isConfigMap
      ? {
          // a Deployment's status is written by the controller-manager at any time: resourceVersions only for ConfigMaps
          stored: before
            ? after?.metadata.resourceVersion === before.metadata.resourceVersion
              ? 'same'
              : 'moved'
            : 'new',
          answerVersion: !answered
            ? undefined
            : !answered.metadata.resourceVersion
              ? 'none'
              : answered.metadata.resourceVersion === before?.metadata.resourceVersion
                ? 'before'
                : answered.metadata.resourceVersion === after?.metadata.resourceVersion
                  ? 'after'
                  : 'other',
          data: after?.data,
          answerData: answered?.data,
          labels: after?.metadata.labels,
        }
      : {
          images: (
            after?.spec as { template?: { spec?: { containers?: { image: string }[] } } }
          )?.template?.spec?.containers?.map((x) => x.image),
        }),
    ...(kase.fieldsV1 ? { fields: entries(after), answerFields: entries(answered) } : {}),
  };
}
