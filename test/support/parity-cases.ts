import type { KubeObject } from '../../src/common/kube-object.js';
import { KubeApiError } from '../../src/kube/api-error.js';
import type { ClusterClient, ObjectRef } from '../../src/kube/cluster-client.js';

/**
 * The cases the fake cluster must answer as the real API server does (fake-cluster-parity.test.ts runs
 * each against both). `setup` leaves the state, `act` is the request whose outcome is compared, on the
 * object `ref` names.
 */
export interface ParityCase {
  name: string;
  /** The object compared before and after `act` (name in the case's namespace). */
  ref: { apiVersion: string; kind: string; name: string };
  setup?: (c: ClusterClient, ns: string) => Promise<unknown>;
  act: (c: ClusterClient, ns: string) => Promise<unknown>;
  /** Compare the managedFields entries whole (FieldsV1 included): for kinds without server defaults. */
  fieldsV1?: boolean;
}

const cm = (
  ns: string,
  data: Record<string, string>,
  extra: Partial<KubeObject['metadata']> = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: ns, ...extra },
  data,
});
const cmRef = (ns: string): ObjectRef => ({
  apiVersion: 'v1',
  group: '',
  kind: 'ConfigMap',
  namespace: ns,
  name: 'cm',
});
const deployment = (ns: string, image: string): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: ns },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'main', image, ports: [{ containerPort: 80, protocol: 'TCP' }] }] },
    },
  },
});

const ours = { fieldManager: 'parity' };
const CM = { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm' };
const patchX = (c: ClusterClient, ns: string, value: string) =>
  c.jsonPatch(cmRef(ns), [{ op: 'add', path: '/data/x', value }], { fieldManager: 'kubectl-patch' });

export const parityCases: ParityCase[] = [
  { name: 'apply creates', ref: CM, act: (c, ns) => c.apply(cm(ns, { x: '1' }), ours), fieldsV1: true },
  {
    name: 'a no-op apply keeps the resourceVersion',
    ref: CM,
    setup: (c, ns) => c.apply(cm(ns, { x: '1' }, { labels: { app: 'a' } }), ours),
    act: (c, ns) => c.apply(cm(ns, { x: '1' }, { labels: { app: 'a' } }), ours),
    fieldsV1: true,
  },
  {
    name: 'apply configures a changed field',
    ref: CM,
    setup: (c, ns) => c.apply(cm(ns, { x: '1' }), ours),
    act: (c, ns) => c.apply(cm(ns, { x: '2' }), ours),
    fieldsV1: true,
  },
  {
    name: "a field another manager changed is a conflict (409, the server's causes)",
    ref: CM,
    setup: async (c, ns) => {
      await c.apply(cm(ns, { x: '1', y: '1' }), ours);
      await patchX(c, ns, '2');
    },
    act: (c, ns) => c.apply(cm(ns, { x: '1', y: '1' }), ours),
    fieldsV1: true,
  },
  {
    name: 'conflicts with several managers: the message lists them by manager',
    ref: CM,
    setup: async (c, ns) => {
      await c.apply(cm(ns, { a: '1' }), { fieldManager: 'one' });
      await c.apply(cm(ns, { b: '1' }), { fieldManager: 'two' });
      await patchX(c, ns, '2');
    },
    act: (c, ns) => c.apply(cm(ns, { a: '9', b: '9', x: '9' }), ours),
    fieldsV1: true,
  },
  {
    name: 'a forced apply takes the field over',
    ref: CM,
    setup: async (c, ns) => {
      await c.apply(cm(ns, { x: '1', y: '1' }), ours);
      await patchX(c, ns, '2');
    },
    act: (c, ns) => c.apply(cm(ns, { x: '1', y: '1' }), { ...ours, force: true }),
    fieldsV1: true,
  },
  {
    name: 'the same value as another manager: shared ownership, no conflict',
    ref: CM,
    setup: (c, ns) =>
      c.create(cm(ns, { x: '1' }, { labels: { app: 'a' } }), { fieldManager: 'kubectl-create' }),
    act: (c, ns) => c.apply(cm(ns, { x: '1' }, { labels: { app: 'a' } }), ours),
    fieldsV1: true,
  },
  {
    name: 'a field dropped from our apply is removed, and a map left empty with it',
    ref: CM,
    setup: (c, ns) => c.apply(cm(ns, { x: '1', y: '1' }, { labels: { app: 'a' } }), ours),
    act: (c, ns) => c.apply(cm(ns, { x: '1' }), ours),
    fieldsV1: true,
  },
  {
    name: 'a field dropped from our apply stays when another applier owns it too',
    ref: CM,
    setup: async (c, ns) => {
      await c.apply(cm(ns, { x: '1', y: '1' }), ours);
      await c.apply(cm(ns, { y: '1' }), { fieldManager: 'helm' });
    },
    act: (c, ns) => c.apply(cm(ns, { x: '1' }), ours),
    fieldsV1: true,
  },
  {
    name: 'a dry-run apply of a new object stores nothing',
    ref: CM,
    act: (c, ns) => c.apply(cm(ns, { x: '1' }), { ...ours, dryRun: true }),
    fieldsV1: true,
  },
  {
    name: 'a dry-run apply answers the change and stores nothing',
    ref: CM,
    setup: (c, ns) => c.apply(cm(ns, { x: '1' }), ours),
    act: (c, ns) => c.apply(cm(ns, { x: '2', y: '2' }), { ...ours, dryRun: true }),
    fieldsV1: true,
  },
  {
    name: 'a dry-run create answers without a resourceVersion',
    ref: CM,
    act: (c, ns) => c.create(cm(ns, { x: '1' }), { fieldManager: 'kubectl-create', dryRun: true }),
    fieldsV1: true,
  },
  {
    name: 'create of an existing object is 409 AlreadyExists',
    ref: CM,
    setup: (c, ns) => c.create(cm(ns, { x: '1' }), { fieldManager: 'kubectl-create' }),
    act: (c, ns) => c.create(cm(ns, { x: '2' }), { fieldManager: 'kubectl-create' }),
    fieldsV1: true,
  },
  {
    name: 'an update with a stale resourceVersion is 409',
    ref: CM,
    setup: (c, ns) => c.create(cm(ns, { x: '1' }), { fieldManager: 'kubectl-create' }),
    act: (c, ns) =>
      c.replace(cm(ns, { x: '2' }, { resourceVersion: '1' }), { fieldManager: 'kubectl-replace' }),
    fieldsV1: true,
  },
  {
    name: 'an update takes the fields it changes from their owner',
    ref: CM,
    setup: (c, ns) => c.apply(cm(ns, { x: '1', y: '1' }), ours),
    act: async (c, ns) => {
      const live = (await c.get(cmRef(ns)))!;
      return c.replace({ ...live, data: { x: '2', y: '1', z: '3' } }, { fieldManager: 'kubectl-edit' });
    },
    fieldsV1: true,
  },
  {
    name: 'a JSON patch whose test fails is 422 and changes nothing',
    ref: CM,
    setup: (c, ns) => c.apply(cm(ns, { x: '1' }), ours),
    act: (c, ns) =>
      c.jsonPatch(
        cmRef(ns),
        [
          { op: 'test', path: '/data/x', value: 'other' },
          { op: 'replace', path: '/data/x', value: '2' },
        ],
        { fieldManager: 'kubectl-patch' },
      ),
    fieldsV1: true,
  },
  {
    name: 'a delete with another UID as precondition is 409 and deletes nothing',
    ref: CM,
    setup: (c, ns) => c.apply(cm(ns, { x: '1' }), ours),
    act: (c, ns) => c.delete(cmRef(ns), { uid: '00000000-0000-4000-8000-00000000dead' }),
    fieldsV1: true,
  },
  {
    name: 'a delete with the UID as precondition deletes it',
    ref: CM,
    setup: (c, ns) => c.apply(cm(ns, { x: '1' }), ours),
    act: async (c, ns) => c.delete(cmRef(ns), { uid: (await c.get(cmRef(ns)))!.metadata.uid }),
  },
  {
    name: 'a delete of an object with a finalizer leaves it pending, with a deletionTimestamp',
    ref: CM,
    setup: (c, ns) => c.apply(cm(ns, { x: '1' }, { finalizers: ['example.com/hold'] }), ours),
    act: (c, ns) => c.delete(cmRef(ns), { propagationPolicy: 'Background' }),
  },
  {
    name: 'removing the last finalizer of an object being deleted removes it',
    ref: CM,
    setup: async (c, ns) => {
      await c.apply(cm(ns, { x: '1' }, { finalizers: ['example.com/hold'] }), ours);
      await c.delete(cmRef(ns));
    },
    act: (c, ns) =>
      c.jsonPatch(cmRef(ns), [{ op: 'remove', path: '/metadata/finalizers' }], {
        fieldManager: 'kubectl-patch',
      }),
  },
  {
    name: 'a delete of a missing object is notfound',
    ref: CM,
    act: (c, ns) => c.delete(cmRef(ns)),
  },
  {
    name: 'an apply into a missing namespace is 404',
    ref: CM,
    act: (c, ns) => c.apply(cm(`${ns}-missing`, { x: '1' }), ours),
  },
  {
    name: 'a container image owned by another applier is a conflict on the keyed list item',
    ref: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    setup: (c, ns) => c.apply(deployment(ns, 'example/web:1'), { fieldManager: 'helm' }),
    act: (c, ns) => c.apply(deployment(ns, 'example/web:2'), ours),
  },
  {
    name: 'a Deployment applied again with the same image is shared, its generation unchanged',
    ref: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    setup: (c, ns) => c.apply(deployment(ns, 'example/web:1'), { fieldManager: 'helm' }),
    act: (c, ns) => c.apply(deployment(ns, 'example/web:1'), ours),
  },
];

const uid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

type Outcome = Record<string, unknown>;

/** What a case ends in, in the terms the parity test compares. */
export async function outcomeOf(c: ClusterClient, ns: string, kase: ParityCase): Promise<Outcome> {
  const ref = { ...kase.ref, group: kase.ref.apiVersion.includes('/') ? 'apps' : '', namespace: ns };
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
  const isConfigMap = kase.ref.kind === 'ConfigMap';
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
