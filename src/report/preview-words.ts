import { shortName } from '../common/object-id.js';
import type {
  FieldChange,
  PreviewAction,
  PreviewDocument,
  PreviewObject,
  PreviewSummary,
} from '../preview/types.js';

/**
 * The words every preview rendering shares (PR comment, job summary, terminal), so the three never
 * disagree about what an action is called or how a change is summed up.
 */

export const ACTION_ICON: Record<PreviewAction, string> = {
  create: '➕',
  configure: '✏️',
  replace: '♻️',
  prune: '🗑️',
  orphan: '✂️',
  skip: '⚠️',
  error: '❌',
  unchanged: '·',
};

/** The order counts are read in: what changes first, problems next, the unchanged rest last. */
export const ACTION_ORDER: readonly PreviewAction[] = [
  'create',
  'configure',
  'replace',
  'prune',
  'orphan',
  'skip',
  'error',
  'unchanged',
];

const COUNT_WORDS: Record<PreviewAction, (n: number) => string> = {
  create: (n) => `${n} to create`,
  configure: (n) => `${n} to configure`,
  replace: (n) => `${n} to replace`,
  prune: (n) => `${n} to prune`,
  orphan: (n) => `${n} to orphan`,
  skip: (n) => `${n} skipped`,
  error: (n) => (n === 1 ? '1 error' : `${n} errors`),
  unchanged: (n) => `${n} unchanged`,
};

/** The icon of a blocked object (apply would not deploy it): its action is `error`, its cause is not the server. */
export const BLOCKED_ICON = '⛔';

/** The icon for one object: its action's, or the blocked one. */
export function objectIcon(obj: PreviewObject): string {
  return obj.blocked ? BLOCKED_ICON : ACTION_ICON[obj.action];
}

/**
 * `['1 to create', '2 blocked', '5 unchanged']`: non-zero counts only; blocked objects (counted among the
 * errors) are named apart from the other errors.
 */
export function countPhrases(summary: Omit<PreviewSummary, 'blocked'> & { blocked?: number }): string[] {
  const blocked = summary.blocked ?? 0;
  return ACTION_ORDER.flatMap((action) => {
    if (action !== 'error') return summary[action] > 0 ? [COUNT_WORDS[action](summary[action])] : [];
    const others = summary.error - blocked;
    return [
      ...(blocked > 0 ? [`${blocked} blocked`] : []),
      ...(others > 0 ? [COUNT_WORDS.error(others)] : []),
    ];
  });
}

/** True when applying would do anything or something needs attention (skips and errors count). */
export function hasChanges(summary: Omit<PreviewSummary, 'blocked'>): boolean {
  return ACTION_ORDER.some((action) => action !== 'unchanged' && summary[action] > 0);
}

/** `Deployment/web`, with ` in <namespace>` when it differs from the namespace the headline names. */
export function objectName(obj: PreviewObject, doc: PreviewDocument): string {
  const ns = obj.id.namespace;
  return ns && ns !== doc.context.namespace ? `${shortName(obj.id)} in ${ns}` : shortName(obj.id);
}

/** Objects a reader needs to see: everything but the unchanged ones. */
export function listedObjects(doc: PreviewDocument): PreviewObject[] {
  return doc.objects.filter((obj) => obj.action !== 'unchanged');
}

/** `a.b[0]["x.y"].c` as tokens that keep their separators: `a`, `.b`, `[0]`, `["x.y"]`, `.c`. */
function pathTokens(path: string): string[] {
  return path.match(/\[(?:"(?:[^"\\]|\\.)*"|[^\]]*)\]|\.?[^.[]+/g) ?? [path];
}

/** The tail of a long path (`…envFrom[0].configMapRef.name`), at most `max` characters when it can be. */
export function shortenPath(path: string, max = 40): string {
  if (path.length <= max) return path;
  const tokens = pathTokens(path);
  let tail = tokens[tokens.length - 1];
  for (let i = tokens.length - 2; i >= 0; i--) {
    const longer = tokens[i] + tail;
    // never start with a bare index: `…containers[0].image` reads, `…[0].image` does not
    if (longer.replace(/^\./, '').length + 1 > max && !tail.startsWith('[')) break;
    tail = longer;
  }
  return `…${tail.replace(/^\./, '')}`;
}

/** For a Secret key (`data.password`, `data["tls.crt"]`) the key alone; other paths shortened. */
export function displayPath(change: FieldChange): string {
  const key = /^(?:data|stringData)(?:\.(.+)|\[("(?:[^"\\]|\\.)*")\])$/.exec(change.path);
  if (change.redacted && key) return key[1] ?? (JSON.parse(key[2]) as string);
  return shortenPath(change.path);
}

/** What happened to one field, in words after its path: `1 → 2`, `changed (value hidden)`, `added`. */
export function changeWords(change: FieldChange): string {
  if (change.redacted) {
    const verb = { add: 'added', remove: 'removed', change: 'changed' }[change.op];
    return `${verb} (value hidden)`;
  }
  if (change.op === 'add') return 'added';
  if (change.op === 'remove') return 'removed';
  const short = (v?: string) => v !== undefined && v.length <= 24;
  return short(change.before) && short(change.after) ? `${change.before} → ${change.after}` : 'changed';
}

/** Why an object is listed, in plain words (no markup): `create`, `prune (no longer in the package)`. */
export function actionWords(obj: PreviewObject): string {
  const why = obj.reason;
  switch (obj.action) {
    case 'create':
      return why ? `create (${why})` : 'create';
    case 'configure':
      return why ? `configure (${why})` : 'configure';
    case 'prune':
      return `prune (${why ?? 'no longer in the package'})`;
    case 'orphan':
      return `orphan: left in the cluster, no longer managed${why ? ` (${why})` : ''}`;
    case 'replace':
      return why ? `replace: ${why}` : 'replace (delete, then create)';
    case 'skip':
      return `skipped: ${why ?? 'no reason given'}`;
    case 'error':
      if (obj.blocked) return `blocked: ${why ?? 'not deployed'}. Fix: ${obj.blocked.fix}`;
      return `error: ${why ?? 'no message from the server'}`;
    default:
      return obj.action;
  }
}
