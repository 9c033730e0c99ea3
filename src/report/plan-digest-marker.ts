import type { PlanEntry, ReviewedPlan } from '../preview/plan-digest.js';
import { PreviewActions } from '../preview/types.js';

/**
 * The reviewed plan inside the PR comment, as a hidden HTML comment GitHub does not render:
 *
 *     <!-- kpt-live-action:plan v1 hash=0f3a… objects=12 tree=9b1e…
 *     create 1a2b3c4d5e6f shop_web_apps_Deployment
 *     prune - shop_old_core_ConfigMap
 *     -->
 *
 * One line per object that changes (unchanged ones are only counted: they are in the hash). Keys are
 * percent-encoded, so nothing in them can end the HTML comment. `tree=` is the package's git tree at
 * review; comments written before it existed lack it and still parse.
 */

const HEAD = '<!-- kpt-live-action:plan v1';
/** Object lines stop here (a 2,000-object package would otherwise crowd the preview out of the comment). */
export const PLAN_DIGEST_MAX = 16_000;

export function renderPlanDigest(plan: ReviewedPlan, max = PLAN_DIGEST_MAX): string {
  const head = `${HEAD} hash=${plan.hash} objects=${plan.objects}${plan.tree ? ` tree=${plan.tree}` : ''}`;
  const lines = (plan.changed ?? []).map((e) => `${e.action} ${e.hash || '-'} ${encodeURIComponent(e.key)}`);
  const full = [head, ...lines, '-->'].join('\n');
  if (plan.changed && full.length <= max) return full;
  return [`${head} listed=no`, '-->'].join('\n');
}

/** The reviewed plan in a comment body; undefined when it has none (an older comment, or none at all). */
export function parsePlanDigest(body: string): ReviewedPlan | undefined {
  const start = body.indexOf(HEAD);
  if (start < 0) return undefined;
  const end = body.indexOf('-->', start);
  if (end < 0) return undefined;
  const [head, ...lines] = body.slice(start + HEAD.length, end).split('\n');
  const hash = head.match(/\bhash=([0-9a-f]+)/)?.[1];
  const objects = Number(head.match(/\bobjects=(\d+)/)?.[1]);
  if (!hash || !Number.isFinite(objects)) return undefined;
  const treeHash = head.match(/\btree=([0-9a-f]{40,64})\b/)?.[1];
  const tree = treeHash ? { tree: treeHash } : {};
  if (/\blisted=no\b/.test(head)) return { hash, objects, ...tree };
  const changed: PlanEntry[] = [];
  for (const line of lines) {
    const m = line.trim().match(/^(\S+) (\S+) (\S+)$/);
    if (!m) continue;
    const action = PreviewActions.find((a) => a === m[1]);
    if (!action) return undefined;
    let key: string;
    try {
      key = decodeURIComponent(m[3]);
    } catch {
      return undefined;
    }
    changed.push({ key, action, hash: m[2] === '-' ? '' : m[2] });
  }
  return { hash, objects, changed, ...tree };
}

/** The body without its plan digest (a comment that no longer describes a plan to apply). */
export function withoutPlanDigest(body: string): string {
  const start = body.indexOf(HEAD);
  if (start < 0) return body;
  const end = body.indexOf('-->', start);
  if (end < 0) return body;
  return (body.slice(0, start).trimEnd() + '\n' + body.slice(end + 3).replace(/^\n/, '')).trimEnd() + '\n';
}

/** The plan digest's own text in a body ('' when it has none). */
export function planDigestText(body: string): string {
  const start = body.indexOf(HEAD);
  if (start < 0) return '';
  const end = body.indexOf('-->', start);
  return end < 0 ? '' : body.slice(start, end + 3);
}
