import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/apply/events.js';
import { goJson, JsonEventFormatter, renderEventsJson, rfc3339 } from '../../../src/report/events-json.js';
import { applied, id, jsonOutputRun, phase, pruned, started, waited } from './run-events.js';

const CLOCK = new Date('2024-05-06T07:08:09.123Z');
const now = () => CLOCK;
const TS = '2024-05-06T07:08:09Z';

describe('renderEventsJson', () => {
  it('matches kpt e2e live-apply/json-output byte for byte (timestamps from the injected clock)', () => {
    // stdOut of kptdev/kpt e2e/testdata/live-apply/json-output/config.yaml with <TIMESTAMP> filled in
    const expected = `{"action":"Inventory","status":"Started","timestamp":"<TIMESTAMP>","type":"group"}
{"action":"Inventory","status":"Finished","timestamp":"<TIMESTAMP>","type":"group"}
{"action":"Apply","status":"Started","timestamp":"<TIMESTAMP>","type":"group"}
{"group":"","kind":"ConfigMap","name":"cm","namespace":"json-output","status":"Successful","timestamp":"<TIMESTAMP>","type":"apply"}
{"action":"Apply","count":1,"failed":0,"skipped":0,"status":"Finished","successful":1,"timestamp":"<TIMESTAMP>","type":"group"}
{"action":"Wait","status":"Started","timestamp":"<TIMESTAMP>","type":"group"}
{"group":"","kind":"ConfigMap","name":"cm","namespace":"json-output","status":"Successful","timestamp":"<TIMESTAMP>","type":"wait"}
{"action":"Wait","count":1,"failed":0,"skipped":0,"status":"Finished","successful":1,"timeout":0,"timestamp":"<TIMESTAMP>","type":"group"}
{"action":"Apply","status":"Started","timestamp":"<TIMESTAMP>","type":"group"}
{"group":"apps","kind":"Deployment","name":"nginx","namespace":"json-output","status":"Successful","timestamp":"<TIMESTAMP>","type":"apply"}
{"action":"Apply","count":2,"failed":0,"skipped":0,"status":"Finished","successful":2,"timestamp":"<TIMESTAMP>","type":"group"}
{"action":"Wait","status":"Started","timestamp":"<TIMESTAMP>","type":"group"}
{"group":"apps","kind":"Deployment","name":"nginx","namespace":"json-output","status":"Successful","timestamp":"<TIMESTAMP>","type":"wait"}
{"action":"Wait","count":2,"failed":0,"skipped":0,"status":"Finished","successful":2,"timeout":0,"timestamp":"<TIMESTAMP>","type":"group"}
{"action":"Prune","status":"Started","timestamp":"<TIMESTAMP>","type":"group"}
{"group":"apps","kind":"Deployment","name":"second-nginx","namespace":"json-output","status":"Successful","timestamp":"<TIMESTAMP>","type":"prune"}
{"action":"Prune","count":1,"failed":0,"skipped":0,"status":"Finished","successful":1,"timestamp":"<TIMESTAMP>","type":"group"}
{"action":"Wait","status":"Started","timestamp":"<TIMESTAMP>","type":"group"}
{"group":"apps","kind":"Deployment","name":"second-nginx","namespace":"json-output","status":"Successful","timestamp":"<TIMESTAMP>","type":"wait"}
{"action":"Wait","count":3,"failed":0,"skipped":0,"status":"Finished","successful":3,"timeout":0,"timestamp":"<TIMESTAMP>","type":"group"}
{"action":"Prune","status":"Started","timestamp":"<TIMESTAMP>","type":"group"}
{"group":"apps","kind":"Deployment","name":"first-nginx","namespace":"json-output","status":"Successful","timestamp":"<TIMESTAMP>","type":"prune"}
{"action":"Prune","count":2,"failed":0,"skipped":0,"status":"Finished","successful":2,"timestamp":"<TIMESTAMP>","type":"group"}
{"action":"Wait","status":"Started","timestamp":"<TIMESTAMP>","type":"group"}
{"group":"apps","kind":"Deployment","name":"first-nginx","namespace":"json-output","status":"Successful","timestamp":"<TIMESTAMP>","type":"wait"}
{"action":"Wait","count":4,"failed":0,"skipped":0,"status":"Finished","successful":4,"timeout":0,"timestamp":"<TIMESTAMP>","type":"group"}
{"action":"Inventory","status":"Started","timestamp":"<TIMESTAMP>","type":"group"}
{"action":"Inventory","status":"Finished","timestamp":"<TIMESTAMP>","type":"group"}
{"action":"Apply","count":2,"failed":0,"skipped":0,"successful":2,"timestamp":"<TIMESTAMP>","type":"summary"}
{"action":"Prune","count":2,"failed":0,"skipped":0,"successful":2,"timestamp":"<TIMESTAMP>","type":"summary"}
{"action":"Wait","count":4,"failed":0,"skipped":0,"successful":4,"timeout":0,"timestamp":"<TIMESTAMP>","type":"summary"}
`.replaceAll('<TIMESTAMP>', TS);
    const run = renderEventsJson(jsonOutputRun('json-output'), { now });
    expect(run.text).toBe(expected);
    expect(run.exitCode).toBe(0);
  });

  it('adds "error" to failed and skipped resource events, and prints a fatal error then stops', () => {
    const dep = id('apps', 'Deployment', '', 'my-dep');
    const run = renderEventsJson(
      [
        started('Apply'),
        applied(dep, 'Skipped', 'example error'),
        { type: 'error', error: 'boom' },
        applied(dep),
      ],
      { now },
    );
    expect(run.text.split('\n')).toEqual([
      `{"action":"Apply","status":"Started","timestamp":"${TS}","type":"group"}`,
      `{"error":"example error","group":"apps","kind":"Deployment","name":"my-dep","namespace":"","status":"Skipped","timestamp":"${TS}","type":"apply"}`,
      `{"error":"boom","timestamp":"${TS}","type":"error"}`,
      '',
    ]);
    expect(run.exitCode).toBe(1);
  });

  it('prints status events with message and kstatus only when asked', () => {
    const event: RunEvent = {
      type: 'status',
      id: id('apps', 'Deployment', 'foo', 'bar'),
      status: 'Current',
      message: 'Resource is Current',
    };
    expect(new JsonEventFormatter({ now }).format(event)).toBeUndefined();
    expect(new JsonEventFormatter({ now, showStatusEvents: true }).format(event)).toBe(
      `{"group":"apps","kind":"Deployment","message":"Resource is Current","name":"bar","namespace":"foo","status":"Current","timestamp":"${TS}","type":"status"}`,
    );
  });

  it('counts failures and timeouts into group lines and summaries, and exits 3', () => {
    const a = id('', 'ConfigMap', 'ns', 'a');
    const b = id('', 'ConfigMap', 'ns', 'b');
    const run = renderEventsJson(
      [
        ...phase('Apply', applied(a), applied(b, 'Failed', 'nope')),
        ...phase('Wait', waited(a, 'Timeout'), waited(b, 'Skipped')),
        ...phase('Prune', pruned(a, 'Skipped', 'kept')),
      ],
      { now },
    );
    const lines = run.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.type === 'summary')).toEqual([
      { action: 'Apply', count: 2, failed: 1, skipped: 0, successful: 1, timestamp: TS, type: 'summary' },
      { action: 'Prune', count: 1, failed: 0, skipped: 1, successful: 0, timestamp: TS, type: 'summary' },
      {
        action: 'Wait',
        count: 2,
        failed: 0,
        skipped: 1,
        successful: 0,
        timeout: 1,
        timestamp: TS,
        type: 'summary',
      },
    ]);
    expect(run.exitCode).toBe(3);
  });
});

describe('goJson and rfc3339', () => {
  it('sorts keys and escapes like Go encoding/json', () => {
    expect(goJson({ z: 1, a: 'x <y> & "q"\u2028', m: { b: 1, a: [{ d: 1, c: 2 }] } })).toBe(
      '{"a":"x \\u003cy\\u003e \\u0026 \\"q\\"\\u2028","m":{"a":[{"c":2,"d":1}],"b":1},"z":1}',
    );
  });

  it('drops sub-second precision like Go time.RFC3339', () => {
    expect(rfc3339(new Date('2020-01-02T03:04:05.999Z'))).toBe('2020-01-02T03:04:05Z');
  });
});
