import type { KubeObject } from '../../common/kube-object.js';
import type { ClusterClient } from '../../kube/cluster-client.js';
import type { ResourceInfo } from '../../kube/discovery.js';
import type { StatusResult } from '../types.js';
import { byController } from './current-pods.js';
import { commonSelector } from './label-selector.js';
import { type RolloutSnapshot, rolloutVerdict } from './rollout-verdict.js';
import { SelectorFeed } from './selector-feed.js';
import { type FailFastThresholds, failFastOptedOut, type WorkloadKind, workloadKind } from './thresholds.js';

export interface RolloutWatchOptions {
  waitForJobs?: boolean;
  thresholds?: Partial<FailFastThresholds>;
  /** Epoch ms; tests pass a clock. */
  now?: () => number;
}

export interface RolloutWatchHooks {
  /** The wave's workloads in this namespace, as last seen: one label selector is made for all of them. */
  workloadsIn(namespace: string): KubeObject[];
  /** Judge these targets (by key) again: their pods changed, or a grace ended. */
  reevaluate(keys: readonly string[]): void;
  /** Why fail-fast cannot work in a namespace; said once per run and namespace. */
  onNotice?(message: string): void;
  /**
   * Lives as long as the run (its object watcher): what was said, and which namespaces refused to list
   * pods, are remembered per run, so later waves neither repeat the notice nor ask again.
   */
  run: object;
}

interface RunMemory {
  noticed: Set<string>;
  forbidden: Set<string>;
}
const memories = new WeakMap<object, RunMemory>();

/** One namespace's feeds: pods, ReplicaSets (for Deployments), autoscaler events (once a pod is unschedulable). */
interface NamespaceFeeds {
  /** What the feeds showed last, kept until one of them changes. */
  snapshot?: RolloutSnapshot;
  pods?: SelectorFeed;
  replicaSets?: SelectorFeed;
  events?: SelectorFeed;
  startedReplicaSets: boolean;
  startedEvents: boolean;
}

/**
 * Fail-fast for one wave: reads the pods of the wave's workloads that kstatus calls InProgress (one LIST and
 * WATCH of pods per namespace with one label selector, ReplicaSets likewise when a Deployment waits, and
 * the cluster-autoscaler's `NotTriggerScaleUp` events once a new pod is unschedulable), and turns a
 * workload Failed when `rolloutVerdict` says its new pods cannot succeed. Nothing is listed for a wave whose
 * workloads are Current at once. Without permission to list pods (or ReplicaSets) in a namespace, its
 * workloads are waited for as kpt does, with one notice. `stop()` ends every feed and timer.
 */
export class RolloutWatch {
  private readonly namespaces = new Map<string, NamespaceFeeds>();
  private readonly keysByNamespace = new Map<string, Set<string>>();
  private readonly timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly pending = new Set<string>();
  private flush?: NodeJS.Immediate;
  private readonly memory: RunMemory;
  private stopped = false;

  constructor(
    private readonly client: ClusterClient,
    private readonly hooks: RolloutWatchHooks,
    private readonly options: RolloutWatchOptions = {},
  ) {
    let memory = memories.get(hooks.run);
    if (!memory) {
      memory = { noticed: new Set(), forbidden: new Set() };
      memories.set(hooks.run, memory);
    }
    this.memory = memory;
  }

  /** kstatus' result for a wait target, or fail-fast's verdict on it (see rolloutVerdict). */
  judge(key: string, obj: KubeObject, kstatus: StatusResult): StatusResult {
    const kind = this.eligible(obj);
    if (this.stopped || !kind) return kstatus;
    const relevant =
      kstatus.status === 'InProgress' ||
      (kstatus.status === 'Failed' &&
        (kstatus.reason === 'ProgressDeadlineExceeded' || kstatus.reason === 'JobFailed'));
    if (!relevant) return kstatus;
    const namespace = obj.metadata.namespace ?? '';
    const keys = this.keysByNamespace.get(namespace) ?? new Set<string>();
    this.keysByNamespace.set(namespace, keys.add(key));
    const snapshot = this.snapshot(namespace, kind);
    if (!snapshot) return kstatus;
    const now = this.options.now?.() ?? Date.now();
    const verdict = rolloutVerdict(obj, kstatus, snapshot, {
      now,
      thresholds: this.options.thresholds,
      waitForJobs: this.options.waitForJobs,
    });
    if (verdict.awaitsAutoscaler) this.watchAutoscaler(namespace);
    if (verdict.recheckAt !== undefined) this.recheck(key, verdict.recheckAt - now);
    return verdict.result;
  }

  /** The workload kind fail-fast judges this object as, or undefined (not a workload, opted out, a Job without wait-for-jobs). */
  private eligible(obj: KubeObject): WorkloadKind | undefined {
    const kind = workloadKind(obj);
    if (!kind || failFastOptedOut(obj) || (kind === 'Job' && !this.options.waitForJobs)) return undefined;
    return kind;
  }

  stop(): void {
    this.stopped = true;
    for (const feeds of this.namespaces.values()) {
      feeds.pods?.stop();
      feeds.replicaSets?.stop();
      feeds.events?.stop();
    }
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    if (this.flush) clearImmediate(this.flush);
  }

  /** What the feeds show of the namespace; undefined until they have listed (or when they may not). */
  private snapshot(namespace: string, kind: WorkloadKind): RolloutSnapshot | undefined {
    const feeds = this.feedsFor(namespace);
    const pods = feeds.pods?.objects();
    if (!pods) return undefined;
    // ReplicaSets only once pods could be listed: a namespace that refuses pods needs none, and says so once
    if (kind === 'Deployment' && !feeds.startedReplicaSets) {
      feeds.startedReplicaSets = true;
      void this.startFeed(namespace, 'apps/v1', 'ReplicaSet', 'replicasets', (f) => {
        feeds.replicaSets = f;
      });
    }
    const replicaSets = feeds.replicaSets?.objects();
    if (kind === 'Deployment' && !replicaSets) return undefined;
    if (feeds.snapshot) return feeds.snapshot;
    const scaleUpRefused = new Map<string, string>();
    for (const ev of feeds.events?.objects() ?? []) {
      const uid = (ev.involvedObject as { uid?: unknown } | undefined)?.uid;
      if (typeof uid === 'string' && typeof ev.message === 'string') scaleUpRefused.set(uid, ev.message);
    }
    feeds.snapshot = {
      pods,
      replicaSets: replicaSets ?? [],
      scaleUpRefused,
      podsByController: byController(pods),
    };
    return feeds.snapshot;
  }

  private feedsFor(namespace: string): NamespaceFeeds {
    let feeds = this.namespaces.get(namespace);
    if (feeds) return feeds;
    feeds = { startedReplicaSets: false, startedEvents: false };
    this.namespaces.set(namespace, feeds);
    const target = feeds;
    void this.startFeed(namespace, 'v1', 'Pod', 'pods', (f) => {
      target.pods = f;
    });
    return feeds;
  }

  private watchAutoscaler(namespace: string): void {
    const feeds = this.feedsFor(namespace);
    if (feeds.startedEvents) return;
    feeds.startedEvents = true;
    // a cluster without an autoscaler has no such events; one that may not list events waits for the deadline
    void this.startFeed(
      namespace,
      'v1',
      'Event',
      'events',
      (f) => {
        feeds.events = f;
      },
      { fieldSelector: 'reason=NotTriggerScaleUp', quiet: true },
    );
  }

  private async startFeed(
    namespace: string,
    apiVersion: string,
    kind: string,
    resource: string,
    keep: (feed: SelectorFeed) => void,
    extra: { fieldSelector?: string; quiet?: boolean } = {},
  ): Promise<void> {
    const forbiddenKey = `${namespace}/${resource}`;
    if (this.memory.forbidden.has(forbiddenKey)) return;
    let info: ResourceInfo | undefined;
    try {
      info = await this.client.resolve(apiVersion, kind);
    } catch {
      info = undefined;
    }
    if (!info || this.stopped) return;
    // the selector that covers every workload of the wave in this namespace (events are picked by reason)
    const workloads = this.hooks.workloadsIn(namespace).filter((w) => this.eligible(w));
    const labelSelector = extra.fieldSelector
      ? undefined
      : commonSelector(
          kind === 'Pod' ? workloads : workloads.filter((w) => workloadKind(w) === 'Deployment'),
        );
    const feed = new SelectorFeed(
      this.client,
      info,
      namespace,
      { labelSelector, fieldSelector: extra.fieldSelector },
      () => {
        if (feed.state === 'forbidden' && !this.memory.forbidden.has(forbiddenKey)) {
          this.memory.forbidden.add(forbiddenKey);
          if (!extra.quiet) this.notice(namespace, resource);
        }
        this.changed(namespace);
      },
    );
    keep(feed);
  }

  private notice(namespace: string, resource: string): void {
    if (this.memory.noticed.has(namespace)) return;
    this.memory.noticed.add(namespace);
    this.hooks.onNotice?.(
      `fail-fast is off in namespace ${namespace}: the credentials may not list and watch ${resource} there, ` +
        'so rollouts there are waited for as kpt does (until Current, the progress deadline or the timeout)',
    );
  }

  /** Feeds of a namespace changed: judge its targets again, once per burst of watch events. */
  private changed(namespace: string): void {
    if (this.stopped) return;
    const feeds = this.namespaces.get(namespace);
    if (feeds) feeds.snapshot = undefined;
    this.pending.add(namespace);
    this.flush ??= setImmediate(() => {
      this.flush = undefined;
      const keys = [...this.pending].flatMap((ns) => [...(this.keysByNamespace.get(ns) ?? [])]);
      this.pending.clear();
      if (!this.stopped && keys.length) this.hooks.reevaluate(keys);
    });
  }

  private recheck(key: string, inMs: number): void {
    const at = Date.now() + Math.max(0, inMs);
    const existing = this.timers.get(key);
    if (existing && existing.at <= at) return;
    if (existing) clearTimeout(existing.timer);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      if (!this.stopped) this.hooks.reevaluate([key]);
    }, Math.max(0, inMs) + 5);
    this.timers.set(key, { at, timer });
  }
}
