import { describe, inject, it } from 'vitest';

/**
 * The version gate. Tests run on every test server (the current Kubernetes and 1.20.2, the oldest supported);
 * a test that needs an API or behaviour a server lacks says so with `itSince`/`describeSince`. On an older
 * server it is left out under a name that says why (`[needs Kubernetes 1.25+: ...]`), and `.ci/run` prints the
 * list of what each server left out (scripts/count-tests.mjs), so nothing is skipped silently.
 */
export function serverVersion(): string {
  return inject('controlPlane').version;
}

export function serverMinor(): number {
  return Number(serverVersion().split('.')[1]);
}

/** `it`, or, on a server older than 1.<minor>, a test left out with the reason in its name. */
export function itSince(minor: number, reason: string) {
  return gate(it, minor, reason);
}

/** `describe`, or, on a server older than 1.<minor>, a group left out with the reason in its name. */
export function describeSince(minor: number, reason: string) {
  return gate(describe, minor, reason);
}

type Runner = typeof it | typeof describe;
function gate<T extends Runner>(runner: T, minor: number, reason: string): T {
  if (serverMinor() >= minor) return runner;
  const tag = `[needs Kubernetes 1.${minor}+: ${reason}]`;
  const skipped = ((name: string, fn?: unknown, opts?: unknown) =>
    (runner.skip as (n: string, f?: unknown, o?: unknown) => void)(
      `${name} ${tag}`,
      fn,
      opts,
    )) as unknown as T;
  return skipped;
}
