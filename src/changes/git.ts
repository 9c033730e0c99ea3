import { getExecOutput } from '@actions/exec';

/**
 * Every git command of the action and the CLI goes through here: the Actions toolkit's process runner
 * (`@actions/exec`, which works outside Actions too), with its command echo and output streaming turned
 * off. Arguments are passed as an array, never through a shell (paths and SHAs from an event payload are
 * never interpreted), and git never prompts for credentials (a prompt would hang the job until its timeout).
 */

/** What a git command printed and how it ended. */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Git's multi-line messages as one log line. */
export const oneLine = (text: string) => text.trim().replace(/\s*\n\s*/g, '; ');

/** A failed git command, with the command line and git's own message so the log says what to fix. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly result: GitResult,
    readonly repoDir: string,
  ) {
    super(
      `git ${args.join(' ')} failed in ${repoDir} (exit ${result.code}): ${oneLine(result.stderr) || oneLine(result.stdout) || 'no output'}`,
    );
    this.name = 'GitError';
  }
}

/** The environment git runs with: no terminal prompt, no askpass helper, messages in English. */
export function gitEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return { ...out, GIT_TERMINAL_PROMPT: '0', GCM_INTERACTIVE: 'never', LC_ALL: 'C' };
}

/** Runs git in `repoDir`. Throws a GitError on a non-zero exit unless `allowFail`. */
export async function git(
  repoDir: string,
  args: readonly string[],
  opts: { allowFail?: boolean } = {},
): Promise<GitResult> {
  let result: GitResult;
  try {
    const r = await getExecOutput('git', [...args], {
      cwd: repoDir,
      env: gitEnv(),
      silent: true,
      ignoreReturnCode: true,
    });
    result = { code: r.exitCode, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    throw new Error(`could not run git ${args.join(' ')} in ${repoDir}: ${(err as Error).message}`);
  }
  if (result.code !== 0 && !opts.allowFail) throw new GitError(args, result, repoDir);
  return result;
}
