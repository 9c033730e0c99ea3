import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runPackage } from '../pipeline/run-package.js';
import type { PreviewDocument } from '../preview/types.js';
import { renderPreviewMarkdown } from '../report/preview-markdown.js';
import { renderPreviewText } from '../report/preview-text.js';
import type { CliContext, ExitCode } from './cli-io.js';
import { forEachPackage } from './for-each-package.js';
import { type RunFlags, runOptionsFrom } from './options.js';
import { locatePackage } from './package-dir.js';
import { reportResult } from './run-command.js';

export type PreviewFormat = 'text' | 'json' | 'markdown';

/** One preview document in the chosen format. */
export function renderPreview(doc: PreviewDocument, format: PreviewFormat, color: boolean): string {
  if (format === 'json') return `${JSON.stringify(doc, null, 2)}\n`;
  if (format === 'markdown') return `${renderPreviewMarkdown(doc).trimEnd()}\n`;
  return renderPreviewText(doc, { color });
}

/**
 * `kpt-live preview DIR...`: what apply would do, from a server-side dry-run. Text for a terminal, the
 * preview document as JSON (an array of them for several DIRs), or the PR comment's markdown; with
 * `--output-file` the output goes to that file instead of stdout. Exit 1 when the server rejects an object.
 */
export async function runPreview(
  dirs: readonly string[],
  flags: RunFlags,
  ctx: CliContext,
): Promise<ExitCode> {
  const options = runOptionsFrom(flags);
  const format = flags.output as PreviewFormat;
  const byDir = new Map<string, PreviewDocument>();
  const toFile = flags.outputFile !== undefined;
  const color = !toFile && format === 'text' && !!ctx.stdout.isTTY && !ctx.env.NO_COLOR;
  const code = await forEachPackage(
    dirs,
    { ...flags, output: 'events' },
    ctx,
    { mode: 'preview', verb: 'previewing' },
    (conn) => async (arg, progress, ctx) => {
      const loc = locatePackage(arg, ctx.cwd);
      const result = await runPackage(conn.client, loc.dir, 'preview', {
        repoRoot: loc.root,
        defaultNamespace: flags.namespace ?? conn.access.namespace,
        options,
        previewContext: { cluster: conn.access.clusterName },
        // the line under the plan that says what a failed apply would do, when asked about a rollback
        ...(flags.rollbackOnFailure ? { onFailure: { rollback: true, prune: !!flags.rollbackPrune } } : {}),
      });
      if (result.preview) {
        const doc = loc.root === ctx.cwd ? result.preview : { ...result.preview, package: arg };
        byDir.set(arg, doc);
        if (format !== 'json' && !toFile) progress.out(renderPreview(doc, format, color));
      }
      reportResult(ctx, progress, result, conn);
      return result.exitCode;
    },
  );
  // in the DIRs' order, however many ran at once
  const docs = dirs.flatMap((d) => byDir.get(d) ?? []);
  let text = '';
  if (format === 'json') {
    text = docs.length === 1 ? renderPreview(docs[0], 'json', false) : `${JSON.stringify(docs, null, 2)}\n`;
  } else if (toFile) {
    text = docs.map((d) => renderPreview(d, format, false)).join('\n');
  }
  if (toFile) {
    const file = path.resolve(ctx.cwd, flags.outputFile!);
    await writeFile(file, text);
    ctx.stderr.write(`wrote the preview of ${docs.length} package(s) to ${flags.outputFile}\n`);
  } else if (format === 'json' && docs.length > 0) {
    ctx.stdout.write(text);
  }
  return code;
}
