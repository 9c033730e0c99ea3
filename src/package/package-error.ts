/**
 * One problem with a package, in the words a user can act on: where (file and line, relative to the
 * repository), which object, what is wrong and how to fix it. Package problems are collected, never
 * thrown one at a time, so a single run shows every mistake in a pull request.
 */
export interface PackageError {
  message: string;
  /** Path relative to the repository root (posix separators). */
  file?: string;
  /** 1-based line in `file`. */
  line?: number;
  /** The object it is about, as people read it: `ConfigMap/foo`. */
  object?: string;
  /** What to do about it, e.g. `quote it: "true"`. */
  fix?: string;
}

/**
 * One readable line per error, compiler style, so editors and GitHub annotations can jump to it:
 * `deploy/app/cm.yaml:12: ConfigMap/foo: label "x" value must be a string (got boolean true); quote it: "true"`.
 * The one exception is kpt's cyclic-dependency message, which keeps its own `\n- a -> b` lines.
 */
export function formatPackageError(error: PackageError): string {
  const where = error.file ? (error.line ? `${error.file}:${error.line}: ` : `${error.file}: `) : '';
  const what = error.object ? `${error.object}: ` : '';
  const fix = error.fix ? `; ${error.fix}` : '';
  return `${where}${what}${error.message}${fix}`;
}

/**
 * Orders errors by file then line so output is stable whatever order the rules ran in; errors without a
 * file (package-wide problems) come first.
 */
export function sortPackageErrors(errors: readonly PackageError[]): PackageError[] {
  return [...errors].sort(
    (a, b) => (a.file ?? '').localeCompare(b.file ?? '') || (a.line ?? 0) - (b.line ?? 0),
  );
}

/**
 * Thrown only where a caller handed us something unusable (a path outside the repository); it carries the
 * same structured errors so the CLI can print them without a stack trace and exit 1.
 */
export class PackageFailure extends Error {
  readonly errors: PackageError[];

  constructor(errors: PackageError[]) {
    super(errors.map(formatPackageError).join('\n'));
    this.name = 'PackageFailure';
    this.errors = errors;
  }
}
