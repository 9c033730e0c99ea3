import jsyaml from 'js-yaml';

/**
 * A fast reader for plain manifest files, several times quicker than the `yaml` package on a cold
 * process (300 Roles: ~25 ms instead of ~140 ms). It reads the same YAML 1.2 core schema as read-yaml.ts
 * (`yes`/`on`/`1_000`/timestamps stay strings; `0o17` and `0x1F` are numbers) and gives each document's
 * first content line as read-yaml.ts does. It only takes files it can read exactly like that: no
 * directives, tags, anchors or aliases, no `...`, no content on a `---` line, documents that start with
 * a mapping key at column 0, no quoted scalar or flow collection over several lines (js-yaml is laxer
 * than the yaml package about their indentation). For anything else, and for any syntax error, it
 * returns undefined and the caller reads the file with the `yaml` package, which also points at errors
 * precisely.
 */
export interface FastDoc {
  value: unknown;
  /** 1-based line of the document's first content line. */
  line: number;
}

const plainInt = /^[-+]?[0-9]+$/;
const octInt = /^0o[0-7]+$/;
const hexInt = /^0x[0-9a-fA-F]+$/;
const floatNaN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const floatExp = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const floatPlain = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

const core = jsyaml.FAILSAFE_SCHEMA.extend({
  implicit: [
    new jsyaml.Type('tag:yaml.org,2002:null', {
      kind: 'scalar',
      resolve: (s: string) => /^(?:~|[Nn]ull|NULL)?$/.test(s),
      construct: () => null,
    }),
    new jsyaml.Type('tag:yaml.org,2002:bool', {
      kind: 'scalar',
      resolve: (s: string) => /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s),
      construct: (s: string) => s[0] === 't' || s[0] === 'T',
    }),
    new jsyaml.Type('tag:yaml.org,2002:int', {
      kind: 'scalar',
      resolve: (s: string) => plainInt.test(s) || octInt.test(s) || hexInt.test(s),
      construct: (s: string) =>
        octInt.test(s)
          ? parseInt(s.slice(2), 8)
          : hexInt.test(s)
            ? parseInt(s.slice(2), 16)
            : parseInt(s, 10),
    }),
    new jsyaml.Type('tag:yaml.org,2002:float', {
      kind: 'scalar',
      resolve: (s: string) => floatNaN.test(s) || floatExp.test(s) || floatPlain.test(s),
      construct: (s: string) =>
        floatNaN.test(s)
          ? s.slice(-3).toLowerCase() === 'nan'
            ? Number.NaN
            : s[0] === '-'
              ? Number.NEGATIVE_INFINITY
              : Number.POSITIVE_INFINITY
          : parseFloat(s),
    }),
  ],
});

/** Syntax the fast reader leaves to the `yaml` package: directives, `...`, tags, anchors and aliases. */
const unsupported = /^(?:%|\.\.\.(?:\s|$))|(?:^|[\s:,[{-])[!&*]/m;
const marker = /^---(?:[ \t]*(?:#.*)?)?$/;

/** The documents of `text`, or undefined when only the full reader can read it exactly. */
export function readFastYaml(text: string): FastDoc[] | undefined {
  const docs: FastDoc[] = [];
  for (const doc of documents(text)) {
    if (doc === false) return undefined;
    docs.push(doc);
  }
  return docs;
}

/**
 * `readFastYaml`, giving the event loop a turn whenever it has read for `sliceMs`: a package of a thousand
 * objects takes ~100 ms to read, and the answers the run is already waiting for (discovery, the lock, the
 * inventory) are handled in between instead of after it. `onSlice` gets the documents of each slice as it
 * ends (they may still turn out unreadable by the fast reader as a whole).
 */
export async function readFastYamlInSlices(
  text: string,
  options: { sliceMs?: number; onSlice?: (docs: readonly FastDoc[]) => void } = {},
): Promise<FastDoc[] | undefined> {
  const sliceMs = options.sliceMs ?? 5;
  const docs: FastDoc[] = [];
  let since = performance.now();
  let sliceStart = 0;
  for (const doc of documents(text)) {
    if (doc === false) return undefined;
    docs.push(doc);
    if (performance.now() - since >= sliceMs) {
      options.onSlice?.(docs.slice(sliceStart));
      sliceStart = docs.length;
      await new Promise((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
  options.onSlice?.(docs.slice(sliceStart));
  return docs;
}

/** The documents of `text` one by one; `false` (and nothing after it) when the fast reader gives up. */
function* documents(text: string): Generator<FastDoc | false> {
  if (unsupported.test(text) || text.includes('\t') || text.charCodeAt(0) === 0xfeff) {
    yield false;
    return;
  }
  const lines = text.split('\n');
  let start = 0;
  for (let i = 0; i <= lines.length; i++) {
    const atEnd = i === lines.length;
    const line = atEnd ? '' : lines[i];
    if (!atEnd && !line.startsWith('---')) continue;
    // content on the `---` line
    if (!atEnd && !marker.test(line.replace(/\r$/, ''))) {
      yield false;
      return;
    }
    const doc = readChunk(lines, start, i);
    if (doc === false) {
      yield false;
      return;
    }
    if (doc) yield doc;
    start = i + 1;
  }
}

/** One document between markers: undefined when empty, false when only the full reader may read it. */
function readChunk(lines: string[], from: number, to: number): FastDoc | undefined | false {
  let first = -1;
  for (let i = from; i < to; i++) {
    const l = lines[i].replace(/\r$/, '');
    if (l.trim() === '' || l.trimStart().startsWith('#')) continue;
    first = i;
    break;
  }
  if (first === -1) return undefined;
  if (!/^[A-Za-z0-9_"']/.test(lines[first])) return false;
  let value: unknown;
  try {
    value = loadChunk(lines.slice(from, to).join('\n'));
  } catch {
    return false;
  }
  if (value === declined) return false;
  if (value === null || value === undefined) return undefined;
  return { value, line: first + 1 };
}

const declined = Symbol('declined');

/**
 * One document with js-yaml, or `declined` when a quoted scalar or a flow collection spans lines: js-yaml
 * takes their continuation lines at any indentation, where the yaml package rejects one that is not
 * indented below its block (`a: "x` then `b"` at column 0), so such a node is left to the full reader.
 */
function loadChunk(chunk: string): unknown {
  if (singleLineNodes(chunk)) return jsyaml.load(chunk, { schema: core });
  const opened: number[] = [];
  let multiLine = false;
  const value: unknown = jsyaml.load(chunk, {
    schema: core,
    listener(event, state) {
      if (event === 'open') {
        opened.push(state.position); // before the space, comments and line breaks that precede the node
        return;
      }
      const from = opened.pop() ?? 0;
      if (multiLine) return;
      const start = nodeStart(state.input, from);
      const c = state.input[start];
      const flow = c === '[' || c === '{' || ((c === '"' || c === "'") && state.kind === 'scalar');
      if (flow && state.input.lastIndexOf('\n', state.position - 1) >= start) multiLine = true;
    },
  });
  return multiLine ? declined : value;
}

/**
 * Whether no quoted scalar or flow collection of `chunk` can span lines, judged from the text alone (the
 * js-yaml listener that tells for sure costs a call per node): no `[` or `{` at all, and on every line an
 * even number of `"` and of `'` and no backslash next to them. A line that opens a quoted scalar without
 * closing it has an odd count of its quote (an escape is `\"` or `''`); anything unsure goes the long way.
 */
function singleLineNodes(chunk: string): boolean {
  if (chunk.includes('[') || chunk.includes('{')) return false;
  let dq = 0;
  let sq = 0;
  let backslash = false;
  for (let i = 0; i <= chunk.length; i++) {
    const c = i === chunk.length ? 10 : chunk.charCodeAt(i);
    if (c === 34) dq++;
    else if (c === 39) sq++;
    else if (c === 92) backslash = true;
    else if (c === 10) {
      if (dq % 2 === 1 || sq % 2 === 1 || (backslash && dq + sq > 0)) return false;
      dq = 0;
      sq = 0;
      backslash = false;
    }
  }
  return true;
}

/** The first character of a node whose parsing starts at `i`: past spaces, line breaks and comments. */
function nodeStart(input: string, i: number): number {
  while (i < input.length) {
    const c = input[i];
    if (c === ' ' || c === '\n' || c === '\r') i++;
    else if (c === '#') {
      const eol = input.indexOf('\n', i);
      i = eol === -1 ? input.length : eol;
    } else break;
  }
  return i;
}

/**
 * The 1-based line of the top-level mapping key `key` (plain or quoted) of a document `readFastYaml` read
 * from `text`, found in the text since the fast reader keeps no positions: in a document it reads, a line
 * at column 0 is a top-level key, a comment or a `---`. Undefined unless exactly one line of the document
 * is that key, and when a complex key (`? `) could be it.
 */
export function topLevelKeyLine(text: string, doc: FastDoc, key: string): number | undefined {
  const lines = text.split('\n');
  const forms = [key, JSON.stringify(key), `'${key}'`];
  let found: number | undefined;
  for (let i = doc.line - 1; i < lines.length && !lines[i].startsWith('---'); i++) {
    const l = lines[i];
    if (l.startsWith('?')) return undefined;
    const form = forms.find((f) => l.startsWith(f) && /^ *:(?:[ \r]|$)/.test(l.slice(f.length)));
    if (form === undefined) continue;
    if (found !== undefined) return undefined;
    found = i + 1;
  }
  return found;
}
