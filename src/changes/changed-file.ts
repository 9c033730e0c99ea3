/** How a change touched a file, in GitHub's words (the pulls/compare APIs and `git diff` agree on these four). */
export type FileStatus = 'added' | 'modified' | 'removed' | 'renamed';

/** One file a change touched, with its old path when it moved (both paths may belong to packages). */
export interface ChangedFile {
  /** Relative to the repository root, posix separators. */
  path: string;
  status: FileStatus;
  /** The path before a rename. */
  previous?: string;
}

/** A file entry as `pulls.listFiles` and `repos.compareCommits` return it (only the fields we read). */
export interface ApiFile {
  filename: string;
  status: string;
  previous_filename?: string;
}

/**
 * Maps GitHub's file statuses onto ours: `copied` is a new file (its source is untouched), `changed`
 * (mode only) and `unchanged` count as modified, so a package whose file merely changed mode is still
 * previewed.
 */
export function fromApiFile(f: ApiFile): ChangedFile {
  switch (f.status) {
    case 'added':
    case 'copied':
      return { path: f.filename, status: 'added' };
    case 'removed':
      return { path: f.filename, status: 'removed' };
    case 'renamed':
      return f.previous_filename
        ? { path: f.filename, status: 'renamed', previous: f.previous_filename }
        : { path: f.filename, status: 'added' };
    default:
      return { path: f.filename, status: 'modified' };
  }
}

/**
 * Parses `git diff --name-status -z` output: a status field (`A`, `M`, `D`, `T`, `R<score>`,
 * `C<score>`) followed by one path, or two for renames and copies. NUL-separated, so paths with
 * spaces, tabs, newlines or non-ASCII characters come through unquoted.
 */
export function parseNameStatus(output: string): ChangedFile[] {
  const fields = output.split('\0');
  if (fields[fields.length - 1] === '') fields.pop();
  const files: ChangedFile[] = [];
  for (let i = 0; i < fields.length; ) {
    const status = fields[i++];
    const kind = status.charAt(0);
    if (kind === 'R' || kind === 'C') {
      const from = fields[i++];
      const to = fields[i++];
      if (from === undefined || to === undefined)
        throw new Error(`truncated git diff output after "${status}"`);
      files.push(
        kind === 'R' ? { path: to, status: 'renamed', previous: from } : { path: to, status: 'added' },
      );
      continue;
    }
    const file = fields[i++];
    if (file === undefined) throw new Error(`truncated git diff output after "${status}"`);
    files.push({
      path: file,
      status: kind === 'A' ? 'added' : kind === 'D' ? 'removed' : 'modified',
    });
  }
  return files;
}

/** Which files a change touched; `all` means the change cannot be narrowed and every package counts. */
export interface ChangeSet {
  all: boolean;
  files: ChangedFile[];
  /** The commit the change is relative to (PR base, push `before`): where removed packages are read from. */
  base?: string;
  head?: string;
  /** How the files were found. */
  source: 'pulls-api' | 'git' | 'compare-api' | 'none';
  /** Why a fallback or `all` was chosen, for the log. */
  notes: string[];
}
