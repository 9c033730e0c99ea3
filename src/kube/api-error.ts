/**
 * An error answer from the API server, with the parts users need: HTTP code, the Status reason
 * (`Conflict`, `Invalid`, `Forbidden`, ...), the server's message and its field causes.
 */
export interface StatusCause {
  type?: string;
  message?: string;
  field?: string;
}

export class KubeApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly causes: StatusCause[] = [],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'KubeApiError';
  }

  get notFound(): boolean {
    return this.code === 404;
  }

  get conflict(): boolean {
    return this.code === 409;
  }

  /** The server rejected the object (schema, immutable field, admission). */
  get invalid(): boolean {
    return this.code === 422 || this.reason === 'Invalid';
  }

  get forbidden(): boolean {
    return this.code === 403;
  }
}

/** Builds a KubeApiError from an HTTP status and the response body (a Status object or text). */
export function apiErrorFrom(code: number, body: unknown, what: string, retryAfter?: string): KubeApiError {
  const status = (typeof body === 'object' && body !== null ? body : {}) as {
    reason?: string;
    message?: string;
    details?: { causes?: StatusCause[] };
  };
  const text = typeof body === 'string' && body.trim() ? body.trim() : undefined;
  const message = status.message ?? text ?? `HTTP ${code}`;
  const retry = parseRetryAfter(retryAfter);
  return new KubeApiError(
    code,
    status.reason ?? '',
    `${what}: ${message}`,
    status.details?.causes ?? [],
    retry,
  );
}

/** Retry-After in seconds: delta-seconds or an HTTP date (RFC 9110); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export function isNotFound(err: unknown): boolean {
  return err instanceof KubeApiError && err.notFound;
}

/** A transport-level failure (connection reset/refused, timeout), worth retrying for idempotent calls. */
export function isTransientNetworkError(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code;
  return (
    code === 'ECONNRESET' ||
    code === 'ECONNREFUSED' ||
    code === 'ETIMEDOUT' ||
    code === 'EPIPE' ||
    code === 'EAI_AGAIN' ||
    code === 'UND_ERR_SOCKET' ||
    (err instanceof Error && /socket hang up/.test(err.message))
  );
}
