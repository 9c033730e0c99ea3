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

/** GitHub's own message for a failed request (`Resource not accessible by integration`), else the error's. */
export function apiMessageOf(err: unknown): string {
  if (err !== null && typeof err === 'object' && 'response' in err) {
    const data = (err as { response?: { data?: unknown } }).response?.data;
    if (data !== null && typeof data === 'object' && 'message' in data) {
      const msg = (data as { message: unknown }).message;
      if (typeof msg === 'string' && msg) return msg;
    }
  }
  return err instanceof Error ? err.message : String(err);
}
