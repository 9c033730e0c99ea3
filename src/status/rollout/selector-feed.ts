import type { KubeObject } from '../../common/kube-object.js';
import { KubeApiError } from '../../kube/api-error.js';
import type { ClusterClient, SelectorOptions } from '../../kube/cluster-client.js';
import type { ResourceInfo } from '../../kube/discovery.js';

/** `syncing` until the first LIST answered; `forbidden` when the credentials may not list or watch. */
export type FeedState = 'syncing' | 'synced' | 'forbidden';

/**
 * The objects of one kind in one namespace that a selector picks, kept current by one LIST and one WATCH
 * (re-listed when the watch ends or drops, with a growing pause after failures). Cheap enough to run
 * during one wave: it is stopped when the wave ends.
 */
export class SelectorFeed {
  private readonly items = new Map<string, KubeObject>();
  private handle?: { stop(): void };
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private failures = 0;
  state: FeedState = 'syncing';

  constructor(
    private readonly client: ClusterClient,
    private readonly info: ResourceInfo,
    private readonly namespace: string,
    private readonly selector: SelectorOptions,
    private readonly onChange: () => void,
  ) {
    void this.listAndWatch();
  }

  /** The objects, once listed; undefined while syncing or when forbidden. */
  objects(): KubeObject[] | undefined {
    return this.state === 'synced' ? [...this.items.values()] : undefined;
  }

  stop(): void {
    this.stopped = true;
    this.handle?.stop();
    if (this.timer) clearTimeout(this.timer);
  }

  private keyOf(obj: KubeObject): string {
    return obj.metadata.uid ?? obj.metadata.name;
  }

  private forbid(): void {
    this.state = 'forbidden';
    this.items.clear();
    this.onChange();
  }

  private again(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.listAndWatch(), delay);
  }

  private async listAndWatch(): Promise<void> {
    if (this.stopped) return;
    try {
      const list = await this.client.list(this.info, this.namespace, this.selector);
      if (this.stopped) return;
      this.failures = 0;
      this.items.clear();
      for (const item of list.items) this.items.set(this.keyOf(item), item);
      this.state = 'synced';
      this.onChange();
      const handle = await this.client.watch(
        this.info,
        this.namespace,
        list.resourceVersion,
        (ev) => {
          // an ERROR event (410 Expired, ...) is followed by the server closing the stream: we re-list then
          if (this.stopped || ev.type === 'BOOKMARK' || ev.type === 'ERROR') return;
          const obj = ev.object as unknown as KubeObject;
          if (ev.type === 'DELETED') this.items.delete(this.keyOf(obj));
          else this.items.set(this.keyOf(obj), obj);
          this.onChange();
        },
        (err) => {
          if (this.stopped) return;
          if (err instanceof KubeApiError && err.forbidden) return this.forbid();
          this.again(err ? this.pause() : 100);
        },
        this.selector,
      );
      if (this.stopped) handle.stop();
      else this.handle = handle;
    } catch (err) {
      if (this.stopped) return;
      if (err instanceof KubeApiError && err.forbidden) return this.forbid();
      this.again(this.pause());
    }
  }

  /** 100 ms, doubling to 5 s over consecutive failures. */
  private pause(): number {
    return Math.min(5000, 100 * 2 ** Math.min(this.failures++, 6));
  }
}
