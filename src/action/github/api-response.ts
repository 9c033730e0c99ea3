/** What GitHub's REST answers mean to us: its root URL, a failed request's status and message. No Octokit needed. */

/**
 * The REST API root the runner gives us (`GITHUB_API_URL`: `https://api.github.com`, a GitHub Enterprise
 * Server's `https://host/api/v3`, or a test server), without a trailing slash so Octokit joins paths
 * cleanly.
 */
export function apiBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.GITHUB_API_URL?.trim() || 'https://api.github.com';
  return url.replace(/\/+$/, '');
}

/** HTTP status of an Octokit RequestError (or anything shaped like one); undefined for other errors. */
export function httpStatusOf(err: unknown): number | undefined {
  if (err === null || typeof err !== 'object' || !('status' in err)) return undefined;
  const status = (err as { status: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

/** One entry of a 422 answer's `errors[]`: a string, or `{resource, field, code, message?}`. */
function validationDetail(e: unknown): string | undefined {
  if (typeof e === 'string') return e || undefined;
  if (e === null || typeof e !== 'object') return undefined;
  const { resource, field, code, message, value } = e as Record<string, unknown>;
  if (typeof message === 'string' && message) return message;
  const what = [resource, field].filter((x) => typeof x === 'string' && x).join('.');
  const why =
    code === 'missing_field'
      ? 'is missing'
      : code === 'already_exists'
        ? 'already exists'
        : typeof code === 'string'
          ? code.replace(/_/g, ' ')
          : '';
  const text = [what, why].filter(Boolean).join(' ');
  return text ? `${text}${value !== undefined ? ` (${JSON.stringify(value)})` : ''}` : undefined;
}

/**
 * GitHub's own message for a failed request (`Resource not accessible by integration`), else the error's.
 * A 422's detail is not in its message ("Validation Failed") but in `errors[]`, which is added:
 * `Validation Failed: body is too long (maximum is 65536 characters)`.
 */
export function apiMessageOf(err: unknown): string {
  if (err !== null && typeof err === 'object' && 'response' in err) {
    const data = (err as { response?: { data?: unknown } }).response?.data;
    if (data !== null && typeof data === 'object' && 'message' in data) {
      const msg = (data as { message: unknown }).message;
      const errors = (data as { errors?: unknown }).errors;
      const details = Array.isArray(errors)
        ? errors.map(validationDetail).filter((d): d is string => d !== undefined)
        : [];
      if (typeof msg === 'string' && msg) return details.length ? `${msg}: ${details.join('; ')}` : msg;
    }
  }
  return err instanceof Error ? err.message : String(err);
}

/** The `permissions:` entries GitHub's 403s can be about (the job's GITHUB_TOKEN scopes). */
export type TokenPermission =
  | 'pull-requests: write'
  | 'pull-requests: read'
  | 'issues: write'
  | 'contents: read';

/**
 * Why GitHub refused, in words that say what to change: a 403 names the `permissions:` entry the job
 * lacks (and that a fork's pull request never gets a writable token), a 404 the visibility, a 410 that
 * the repository has issues turned off. Undefined for other statuses.
 */
export function refusalHint(status: number | undefined, needs: TokenPermission): string | undefined {
  if (status === 403) {
    const fork = needs.endsWith('write')
      ? ' (a pull request from a fork, or by Dependabot, gets a read-only token whatever the workflow asks)'
      : '';
    return `the token lacks "permissions: ${needs}": add it to the job's permissions${fork}`;
  }
  if (status === 404) return 'the repository, pull request or issue is not visible to this token';
  if (status === 410)
    return 'issues are disabled in this repository (Settings → General → Features → Issues)';
  return undefined;
}
