import type { Document, LineCounter, Node } from 'yaml';
import { yamlLib } from '../startup/yaml-module.js';
import type { PackageError } from './package-error.js';

/** One parsed YAML document with what is needed to point at its lines later. */
export interface YamlDoc {
  /** File path relative to the repository root (posix). */
  file: string;
  doc: Document.Parsed;
  text: string;
  lineCounter: LineCounter;
  /** 1-based line of the document's first content line (after comments and `---`). */
  line: number;
}

/**
 * 1-based line where a node starts; `fallback` when there is no node or it has no position (a value read by
 * the fast reader has no nodes, and no line counter either).
 */
export function lineOfNode(
  lineCounter: LineCounter | undefined,
  node: Node | null | undefined,
  fallback = 1,
): number {
  const offset = node?.range?.[0];
  return offset === undefined || !lineCounter ? fallback : lineCounter.linePos(offset).line;
}

/**
 * The source text of a scalar node, as written (`1.0`, `yes`, `true`), so a fix can say exactly what to
 * quote rather than what JavaScript made of it.
 */
export function sourceText(text: string, node: Node | null | undefined): string | undefined {
  const range = node?.range;
  return range ? text.slice(range[0], range[1]) : undefined;
}

/**
 * Splits a file into documents with the `yaml` package (YAML 1.2 core schema, as kpt's kyaml reads it:
 * `yes`/`on` stay strings, `true`/`1.0` do not). Syntax errors become PackageErrors with the line the
 * parser points at; a document with errors yields no objects, the other documents of the file still do,
 * so every mistake is reported in one run.
 */
export function parseYamlFile(text: string, file: string): { docs: YamlDoc[]; errors: PackageError[] } {
  const Y = yamlLib();
  const lineCounter = new Y.LineCounter();
  const parsed = Y.parseAllDocuments(text, { lineCounter });
  const docs: YamlDoc[] = [];
  const errors: PackageError[] = [];
  // A stream with nothing in it (empty file, comments only) parses to an EmptyStream, which is an array too.
  for (const doc of Array.isArray(parsed) ? parsed : []) {
    if (doc.errors.length > 0) {
      for (const err of doc.errors) {
        const first = err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
        errors.push({
          message: /Maximum call stack/.test(first)
            ? 'invalid YAML: nested too deeply to read (thousands of levels of lists or maps)'
            : `invalid YAML: ${first}`,
          file,
          line: err.linePos?.[0]?.line ?? lineCounter.linePos(err.pos[0]).line,
          fix: 'fix the YAML syntax at that line (indentation, quotes, unclosed brackets); `kpt fn render` or a YAML linter shows the details',
        });
      }
      continue;
    }
    docs.push({ file, doc, text, lineCounter, line: lineOfNode(lineCounter, doc.contents) });
  }
  return { docs, errors };
}

/**
 * A YAML file's text, or an error naming the file, line and byte when it is not UTF-8 (kpt, kubectl and
 * the API server all read UTF-8; decoding other bytes would silently apply U+FFFD instead).
 */
export function decodeUtf8(bytes: Uint8Array, file: string): { text?: string; error?: PackageError } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    const i = firstInvalidUtf8(bytes);
    let line = 1;
    for (let k = 0; k < i; k++) if (bytes[k] === 0x0a) line++;
    const byte = bytes[i] ?? 0;
    return {
      error: {
        file,
        line,
        message: `not valid UTF-8 (byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')})`,
        fix: 'save the file as UTF-8',
      },
    };
  }
}

/** Index of the first byte that does not belong to a well-formed UTF-8 sequence (bytes.length if none). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const len =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len === 0 || i + len > bytes.length) return i;
    for (let k = 1; k < len; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    i += len;
  }
  return bytes.length;
}
