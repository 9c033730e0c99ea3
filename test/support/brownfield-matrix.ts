import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { RunOptions } from '../../src/apply/run-options.js';
import { shortName } from '../../src/common/object-id.js';
import type { Connection } from '../../src/kube/connect.js';
import type { PackageRunResult } from '../../src/pipeline/run-package.js';
import type { PreviewAction, PreviewDocument } from '../../src/preview/types.js';
import { renderPreviewMarkdown } from '../../src/report/preview-markdown.js';
import { runPkg } from './run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const goldenDir = path.resolve(here, '../golden/brownfield');

/** The apply outcome each preview action promises. */
const promised: Record<PreviewAction, string> = {
  create: 'created',
  configure: 'configured',
  unchanged: 'unchanged',
  replace: 'replaced',
  skip: 'skipped',
  error: 'failed',
  prune: 'pruned',
  orphan: 'abandoned',
};

export interface Step {
  preview: PreviewDocument;
  apply: PackageRunResult;
  /** `Kind/name class` lines, sorted, from the preview (as apply outcomes). */
  promised: string[];
  /** The same lines from apply. */
  outcomes: string[];
  /** The apply's error, or every failed object's message, joined. */
  message: string;
}

/**
 * Previews a package, then applies it with the same options, and asserts the matrix's property: the
 * preview's action for each object is apply's outcome for it (same objects, same classes). An apply the
 * pre-flight refused (nothing changed) counts as failing exactly the objects its message names.
 */
export async function previewThenApply(
  conn: Connection,
  pkg: { repo: string; rel: string },
  ns: string,
  options: Partial<RunOptions> = {},
): Promise<Step> {
  const p = await runPkg(conn, pkg, 'preview', options, ns);
  expect(p.result.error, 'preview error').toBeUndefined();
  const preview = p.result.preview!;
  const { result: apply } = await runPkg(conn, pkg, 'apply', options, ns);
  const run = apply.run;
  const refused = !!run && run.outcome === 'error' && run.objects.every((o) => o.action === 'none');
  // a blocked object (an `error` marked blocked: a skip the user did not choose) is skipped by apply, exit 3
  const lines = preview.objects
    .map((o) => `${shortName(o.id)} ${o.action === 'error' && o.blocked ? 'skipped' : promised[o.action]}`)
    .sort();
  let outcomes: string[];
  if (refused) {
    const error = run!.error ?? '';
    expect(error).toMatch(/^pre-flight server-side dry-run rejected/);
    outcomes = preview.objects
      .map((o) => `${shortName(o.id)} ${error.includes(`${shortName(o.id)}: `) ? 'failed' : 'unchanged'}`)
      .sort();
    // nothing else was done: an object the preview would change must have been named too
    expect(
      lines.filter((l) => !/ (failed|unchanged)$/.test(l)),
      'refused, yet the preview would change',
    ).toEqual([]);
  } else {
    outcomes = (run?.objects ?? []).map((o) => `${shortName(o.id)} ${o.action}`).sort();
  }
  const said = [
    apply.error ?? '',
    ...(run?.objects ?? []).flatMap((o) => (o.message ? [`${shortName(o.id)}: ${o.message}`] : [])),
  ];
  expect(outcomes, `apply did what the preview said\n${said.join('\n')}`).toEqual(lines);
  const message = [apply.error ?? '', ...(run?.objects ?? []).map((o) => o.message ?? '')].join('\n');
  return { preview, apply, promised: lines, outcomes, message };
}

/**
 * The PR comment of one scenario's preview against test/golden/brownfield/<name>.golden.md, with the
 * test's random names (and timestamps) put back to fixed ones; `UPDATE_GOLDEN=1` rewrites the file.
 */
export function expectGolden(name: string, doc: PreviewDocument, names: Record<string, string>) {
  let md = renderPreviewMarkdown({ ...doc, context: { ...doc.context, durationMs: undefined } });
  // longest first, so that a name never replaces part of a longer one
  for (const [from, to] of Object.entries(names).sort(([a], [b]) => b.length - a.length))
    md = md.replaceAll(from, to);
  md = md.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, 'TIMESTAMP');
  // a random name cut short by a table cell's length limit (`inventory-6b…`) is not replaced above
  md = md.replace(/\b(inventory|[a-z]+)-[0-9a-f]{0,5}…/g, '$1-…');
  const file = path.join(goldenDir, `${name}.golden.md`);
  if (process.env.UPDATE_GOLDEN) {
    fs.mkdirSync(goldenDir, { recursive: true });
    fs.writeFileSync(file, md);
  }
  expect(md).toBe(fs.readFileSync(file, 'utf8'));
}
