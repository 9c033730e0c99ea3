import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync } from 'node:fs';
import { EOL } from 'node:os';
import { BatchedWriter } from '../startup/batched-writer.js';

/**
 * The runner's side of an action, as far as this action uses it: inputs from `INPUT_*`, workflow commands on
 * stdout (`::warning title=...::message`, groups, masks) and the `GITHUB_OUTPUT` / `GITHUB_STEP_SUMMARY`
 * files. It writes exactly what `@actions/core` writes for these calls (same escaping, same heredoc delimiter
 * form, same annotation property names) without loading that package, which imports an HTTP client (undici)
 * for OIDC tokens: ~0.4 MB of bundle evaluated on every start for a feature this action never uses.
 */

/** Where an annotation points (the names `@actions/core` takes). */
export interface AnnotationProperties {
  title?: string;
  file?: string;
  startLine?: number;
  endLine?: number;
  startColumn?: number;
  endColumn?: number;
}

/** An input as the runner passes it: `INPUT_<NAME>` (spaces to `_`, upper case), trimmed; '' when unset. */
export function getInput(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/**
 * A workflow command line: `::name key=value,...::message`, with the runner's escaping. Empty values are
 * left out; as in `@actions/core`, a command given properties keeps the space after its name even when
 * all of them were empty (`::warning ::message`).
 */
export function commandLine(name: string, properties: Record<string, unknown>, message: string): string {
  const props = Object.entries(properties)
    .filter(([, v]) => v !== undefined && v !== null && v !== '' && v !== 0 && v !== false)
    .map(([k, v]) => `${k}=${escapeProperty(commandValue(v))}`)
    .join(',');
  const space = Object.keys(properties).length > 0 ? ' ' : '';
  return `::${name}${space}${props}::${escapeData(message)}`;
}

function commandValue(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * The log (stdout, where the runner reads workflow commands too): written in batches, one write per turn of
 * the event loop instead of one per line (a run logs a line or two per object), in order, and flushed when
 * the process exits.
 */
const log = new BatchedWriter((text) => process.stdout.write(text));
process.on('exit', () => log.flush());

/** Writes what the log holds now (tests read it right after a call). */
export function flushLog(): void {
  log.flush();
}

function issue(name: string, properties: Record<string, unknown>, message: string): void {
  log.add(`${commandLine(name, properties, message)}${EOL}`);
}

/** The command properties of an annotation (none at all when none were given, as `@actions/core` does). */
function annotation(p: AnnotationProperties): Record<string, unknown> {
  if (Object.keys(p).length === 0) return {};
  return {
    title: p.title,
    file: p.file,
    line: p.startLine,
    endLine: p.endLine,
    col: p.startColumn,
    endColumn: p.endColumn,
  };
}

export function info(message: string): void {
  log.add(`${message}${EOL}`);
}

export function notice(message: string, properties: AnnotationProperties = {}): void {
  issue('notice', annotation(properties), message);
}

export function warning(message: string, properties: AnnotationProperties = {}): void {
  issue('warning', annotation(properties), message);
}

export function error(message: string, properties: AnnotationProperties = {}): void {
  issue('error', annotation(properties), message);
}

/** Marks the step failed (exit code 1 when the process ends) with an error annotation. */
export function setFailed(message: string): void {
  process.exitCode = 1;
  error(message);
}

export function startGroup(name: string): void {
  issue('group', {}, name);
}

export function endGroup(): void {
  issue('endgroup', {}, '');
}

/** The runner masks this value in every later log line. */
export function setSecret(value: string): void {
  issue('add-mask', {}, value);
}

/**
 * A step output: a heredoc entry in the `GITHUB_OUTPUT` file (`name<<ghadelimiter_<uuid>`), or the old
 * `::set-output` command when the runner gives no file.
 */
export function setOutput(name: string, value: unknown, env: NodeJS.ProcessEnv = process.env): void {
  const text = value === undefined || value === null ? '' : commandValue(value);
  const file = env.GITHUB_OUTPUT;
  if (!file) {
    log.add(EOL);
    issue('set-output', { name }, text);
    return;
  }
  const delimiter = `ghadelimiter_${randomUUID()}`;
  if (name.includes(delimiter) || text.includes(delimiter))
    throw new Error(`Unexpected input: the output ${name} contains the delimiter "${delimiter}"`);
  appendToFile(file, `${name}<<${delimiter}${EOL}${text}${EOL}${delimiter}${EOL}`);
}

/** Appends markdown (and a newline) to the job summary (`GITHUB_STEP_SUMMARY`). */
export function appendSummary(markdown: string, env: NodeJS.ProcessEnv = process.env): void {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file)
    throw new Error(
      'Unable to find environment variable for $GITHUB_STEP_SUMMARY. Check if your runtime environment supports job summaries.',
    );
  appendToFile(file, `${markdown}${EOL}`);
}

function appendToFile(file: string, text: string): void {
  if (!existsSync(file)) throw new Error(`Missing file at path: ${file}`);
  appendFileSync(file, text, { encoding: 'utf8' });
}
