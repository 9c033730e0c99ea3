import type { ClusterClient, ObjectRef } from '../../src/kube/cluster-client.js';
import {
  configMap,
  crd,
  customResource,
  deployment,
  type MetaOptions,
  namespace,
} from './harness/builders.js';

/**
 * The cases the fake cluster must answer as the real API server does (fake-cluster-parity.test.ts runs
 * each against both). `setup` leaves the state, `act` is the request whose outcome is compared, on the
 * object `ref` names.
 */
export interface ParityCase {
  name: string;
  /** The object compared before and after `act`. */
  ref: (ns: string) => ObjectRef;
  setup?: (c: ClusterClient, ns: string) => Promise<unknown>;
  act: (c: ClusterClient, ns: string) => Promise<unknown>;
  /** Compare the managedFields entries whole (FieldsV1 included): for kinds without server defaults. */
  fieldsV1?: boolean;
  /** Removes what the case made outside its namespace (on the real server). */
  cleanup?: (c: ClusterClient, ns: string) => Promise<unknown>;
}

const cm = (ns: string, data: Record<string, string>, o: MetaOptions = {}) =>
  configMap('cm', data, { ...o, namespace: ns });
const cmRef = (ns: string): ObjectRef => ({
  apiVersion: 'v1',
  group: '',
  kind: 'ConfigMap',
  namespace: ns,
  name: 'cm',
});
const web = (ns: string, image: string) => deployment('web', { namespace: ns, image, containerPort: 80 });

const ours = { fieldManager: 'parity' };
const CM = cmRef;
const WEB = (ns: string): ObjectRef => ({
  apiVersion: 'apps/v1',
  group: 'apps',
  kind: 'Deployment',
  namespace: ns,
  name: 'web',
});
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
    name: 'a forced apply pinned to the current resourceVersion takes the field over',
    ref: CM,
    setup: async (c, ns) => {
      await c.apply(cm(ns, { x: '1', y: '1' }), ours);
      await patchX(c, ns, '2');
    },
    act: async (c, ns) => {
      const pinned = cm(ns, { x: '1', y: '1' });
      pinned.metadata.resourceVersion = (await c.get(cmRef(ns)))!.metadata.resourceVersion;
      return c.apply(pinned, { ...ours, force: true });
    },
    fieldsV1: true,
  },
  {
    name: 'a forced apply pinned to a stale resourceVersion is 409 and changes nothing',
    ref: CM,
    setup: async (c, ns) => {
      await c.apply(cm(ns, { x: '1', y: '1' }), ours);
      await patchX(c, ns, '2');
    },
    act: (c, ns) => {
      const stale = cm(ns, { x: '1', y: '1' });
      stale.metadata.resourceVersion = '1';
      return c.apply(stale, { ...ours, force: true });
    },
    fieldsV1: true,
  },
  {
    name: 'a JSON patch of managedFields, testing the resourceVersion, is taken as given',
    ref: CM,
    setup: async (c, ns) => {
      await c.apply(cm(ns, { x: '1', y: '1' }), ours);
      await patchX(c, ns, '2');
    },
    act: async (c, ns) => {
      // the ownership move before a pinned apply: the hand edit's entry goes, its field joins ours
      const live = (await c.get(cmRef(ns)))!;
      const entries = (live.metadata.managedFields as { manager: string }[])
        .filter((e) => e.manager !== 'kubectl-patch')
        .map((e) =>
          e.manager === ours.fieldManager ? { ...e, fieldsV1: { 'f:data': { 'f:x': {}, 'f:y': {} } } } : e,
        );
      return c.jsonPatch(cmRef(ns), [
        { op: 'test', path: '/metadata/resourceVersion', value: live.metadata.resourceVersion },
        { op: 'replace', path: '/metadata/managedFields', value: entries },
      ]);
    },
    fieldsV1: true,
  },
  {
    name: 'a JSON patch of managedFields testing a stale resourceVersion is 422 and changes nothing',
    ref: CM,
    setup: async (c, ns) => {
      await c.apply(cm(ns, { x: '1', y: '1' }), ours);
      await patchX(c, ns, '2');
    },
    act: (c, ns) =>
      c.jsonPatch(cmRef(ns), [
        { op: 'test', path: '/metadata/resourceVersion', value: '1' },
        { op: 'replace', path: '/metadata/managedFields', value: [] },
      ]),
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
    act: (c, ns) => {
      const stale = cm(ns, { x: '2' });
      stale.metadata.resourceVersion = '1';
      return c.replace(stale, { fieldManager: 'kubectl-replace' });
    },
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
    ref: WEB,
    setup: (c, ns) => c.apply(web(ns, 'example/web:1'), { fieldManager: 'helm' }),
    act: (c, ns) => c.apply(web(ns, 'example/web:2'), ours),
  },
  {
    name: 'a Deployment applied again with the same image is shared, its generation unchanged',
    ref: WEB,
    setup: (c, ns) => c.apply(web(ns, 'example/web:1'), { fieldManager: 'helm' }),
    act: (c, ns) => c.apply(web(ns, 'example/web:1'), ours),
  },
  {
    name: 'a custom resource created by an update owns its spec whole (a CRD schema has no struct fields)',
    ref: widgetRef,
    setup: async (c, ns) => {
      await c.apply(widgetCrd(ns), ours);
      await untilServed(c, widgetRef(ns));
    },
    act: (c, ns) =>
      c.create(
        customResource(`${widgetGroup(ns)}/v1`, 'Widget', 'w', { size: 1, tags: ['a'] }, { namespace: ns }),
        { fieldManager: 'kubectl-create' },
      ),
    fieldsV1: true,
    cleanup: (c, ns) =>
      c.delete({
        apiVersion: 'apiextensions.k8s.io/v1',
        group: 'apiextensions.k8s.io',
        kind: 'CustomResourceDefinition',
        namespace: '',
        name: `widgets.${widgetGroup(ns)}`,
      }),
  },
  {
    name: 'a Namespace delete leaves it Terminating (pending), then it goes with its content',
    ref: (ns) => ({ apiVersion: 'v1', group: '', kind: 'Namespace', namespace: '', name: `${ns}-gone` }),
    setup: async (c, ns) => {
      await c.create(namespace(`${ns}-gone`), { fieldManager: 'kubectl-create' });
      await c.apply(cm(`${ns}-gone`, { x: '1' }), ours);
    },
    act: (c, ns) =>
      c.delete({ apiVersion: 'v1', group: '', kind: 'Namespace', namespace: '', name: `${ns}-gone` }),
  },
];

/** A CRD of a group of its own per namespace, so cases never share one. */
const widgetGroup = (ns: string) => `${ns}.example.com`;
function widgetRef(ns: string): ObjectRef {
  return {
    apiVersion: `${widgetGroup(ns)}/v1`,
    group: widgetGroup(ns),
    kind: 'Widget',
    namespace: ns,
    name: 'w',
  };
}
const widgetCrd = (ns: string) => crd({ group: widgetGroup(ns), kind: 'Widget' });

/** Waits until discovery serves the kind (a real server takes a moment after the CRD is Established). */
async function untilServed(c: ClusterClient, ref: ObjectRef): Promise<void> {
  for (let i = 0; i < 150; i++) {
    c.resetDiscovery();
    if (await c.resolveId(ref)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${ref.kind} is not served after 15 s`);
}
