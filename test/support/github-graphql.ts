import type { GitHubServerState, ServerComment } from './github-server.js';

/**
 * The GraphQL endpoint (`POST /graphql`) of the test GitHub server, for the three operations the action
 * sends: `viewer { login }`, `nodes(ids:)` of issue comments (`isMinimized`, `minimizedReason`) and the
 * `minimizeComment` mutation. Like GitHub, it answers 200 with `errors[]` (type FORBIDDEN, NOT_FOUND) when
 * an operation is refused, and `data` for the parts that worked. Anything else is an error, not a guess.
 */

export interface GraphqlContext {
  state: GitHubServerState;
  /** Whether the request's token may write. */
  mayWrite: boolean;
  viewerLogin?: string;
  /** Throws the secondary-limit answer when the mutation is over the limit. */
  limitWrite: () => void;
}

interface GraphqlBody {
  query?: unknown;
  variables?: Record<string, unknown>;
}

const forbidden = (path: string) => ({
  type: 'FORBIDDEN',
  path: [path],
  locations: [{ line: 1, column: 1 }],
  message: 'Resource not accessible by integration',
});

const notFound = (path: string, id: string) => ({
  type: 'NOT_FOUND',
  path: [path],
  locations: [{ line: 1, column: 1 }],
  message: `Could not resolve to a node with the global id of '${id}'`,
});

function commentByNode(state: GitHubServerState, id: string): ServerComment | undefined {
  return [...state.comments.values()].flat().find((c) => c.node_id === id);
}

/** `String` variables the query names by `$name`, or the literal in the query. */
function arg(q: string, vars: Record<string, unknown>, name: string): unknown {
  const ref = q.match(new RegExp(`${name}\\s*:\\s*\\$(\\w+)`))?.[1];
  if (ref) return vars[ref];
  const lit = q.match(new RegExp(`${name}\\s*:\\s*("(?:[^"\\\\]|\\\\.)*"|\\[[^\\]]*\\]|\\w+)`))?.[1];
  if (!lit) return undefined;
  return lit.startsWith('"') || lit.startsWith('[') ? JSON.parse(lit) : lit;
}

/** The answer body (always HTTP 200, as GitHub answers GraphQL errors). */
export function graphqlAnswer(body: unknown, ctx: GraphqlContext): Record<string, unknown> {
  const b = (body ?? {}) as GraphqlBody;
  if (typeof b.query !== 'string')
    return { errors: [{ message: 'A query attribute must be specified and must be a string.' }] };
  const q = b.query;
  const vars = b.variables ?? {};
  const data: Record<string, unknown> = {};
  const errors: unknown[] = [];
  if (/^\s*mutation\b/.test(q)) {
    if (!/minimizeComment/.test(q))
      return { errors: [{ message: 'unsupported mutation in the test server' }] };
    const input = (arg(q, vars, 'input') ?? {}) as { subjectId?: string; classifier?: string };
    const subjectId = input.subjectId ?? (arg(q, vars, 'subjectId') as string | undefined) ?? '';
    const classifier = input.classifier ?? (arg(q, vars, 'classifier') as string | undefined) ?? '';
    if (!ctx.mayWrite) return { data: { minimizeComment: null }, errors: [forbidden('minimizeComment')] };
    ctx.limitWrite();
    const c = commentByNode(ctx.state, subjectId);
    if (!c) return { data: { minimizeComment: null }, errors: [notFound('minimizeComment', subjectId)] };
    if (!['SPAM', 'ABUSE', 'OFF_TOPIC', 'OUTDATED', 'DUPLICATE', 'RESOLVED'].includes(classifier))
      return {
        errors: [{ message: `Argument 'classifier' has an invalid value (${classifier}).` }],
      };
    ctx.state.minimized.set(c.id, classifier);
    return {
      data: {
        minimizeComment: {
          minimizedComment: { isMinimized: true, minimizedReason: classifier.toLowerCase() },
        },
      },
    };
  }
  if (/\bviewer\b/.test(q)) {
    if (ctx.viewerLogin) data.viewer = { login: ctx.viewerLogin };
    else errors.push(forbidden('viewer'));
  }
  if (/\bnodes\s*\(/.test(q)) {
    const ids = (arg(q, vars, 'ids') ?? []) as string[];
    data.nodes = ids.map((id) => {
      const c = commentByNode(ctx.state, id);
      if (!c) {
        errors.push(notFound('nodes', id));
        return null;
      }
      const reason = ctx.state.minimized.get(c.id);
      return {
        __typename: 'IssueComment',
        id,
        isMinimized: reason !== undefined,
        minimizedReason: reason?.toLowerCase() ?? null,
      };
    });
  }
  if (Object.keys(data).length === 0 && errors.length === 0)
    return { errors: [{ message: 'unsupported query in the test server' }] };
  const hasData = Object.values(data).some((v) => v !== undefined);
  return { data: hasData ? data : null, ...(errors.length ? { errors } : {}) };
}
