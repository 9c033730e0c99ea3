import { describe, expect, it } from 'vitest';
import {
  formatPackageError,
  type PackageError,
  PackageFailure,
  sortPackageErrors,
} from '../../../src/package/package-error.js';

describe('formatPackageError', () => {
  it.each<{ error: PackageError; line: string }>([
    {
      error: {
        file: 'deploy/app/cm.yaml',
        line: 12,
        object: 'ConfigMap/foo',
        message: 'label "x" value must be a string (got boolean true)',
        fix: 'quote it: "true"',
      },
      line: 'deploy/app/cm.yaml:12: ConfigMap/foo: label "x" value must be a string (got boolean true); quote it: "true"',
    },
    {
      error: {
        file: 'deploy/app/Kptfile',
        message: 'package has no inventory info',
        fix: 'run "kpt-live init deploy/app"',
      },
      line: 'deploy/app/Kptfile: package has no inventory info; run "kpt-live init deploy/app"',
    },
    { error: { message: 'something global' }, line: 'something global' },
    { error: { object: 'Deployment/web', message: 'broken' }, line: 'Deployment/web: broken' },
  ])('$line', ({ error, line }) => {
    expect(formatPackageError(error)).toBe(line);
  });
});

describe('sortPackageErrors', () => {
  it('orders by file then line, package-wide errors first, without changing the input', () => {
    const input: PackageError[] = [
      { file: 'b.yaml', line: 3, message: '1' },
      { file: 'a.yaml', line: 10, message: '2' },
      { message: '3' },
      { file: 'a.yaml', line: 2, message: '4' },
    ];
    expect(sortPackageErrors(input).map((e) => e.message)).toEqual(['3', '4', '2', '1']);
    expect(input[0].message).toBe('1');
  });
});

describe('PackageFailure', () => {
  it('carries the errors and prints them one per line', () => {
    const failure = new PackageFailure([
      { message: 'one', file: 'a.yaml', line: 1 },
      { message: 'two', fix: 'do x' },
    ]);
    expect(failure).toBeInstanceOf(Error);
    expect(failure.errors).toHaveLength(2);
    expect(failure.message).toBe('a.yaml:1: one\ntwo; do x');
  });
});
