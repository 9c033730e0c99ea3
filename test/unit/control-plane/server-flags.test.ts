import { describe, expect, it } from 'vitest';
import { knownControllers, minorOf, serverFlags } from '../../../scripts/control-plane/server-flags.js';

const help137 = `      --controllers strings   A list of controllers to enable.
                              All controllers: cronjob-controller, deployment-controller, node-ipam-controller,
                              node-lifecycle-controller, serviceaccount-controller,
                              Disabled-by-default controllers: bootstrap-signer-controller (default [*])`;
const help120 = `      --controllers strings   A list of controllers to enable.
                              All controllers: attachdetach, bootstrapsigner, cloud-node-lifecycle, deployment,
                              nodeipam, nodelifecycle, route, service, serviceaccount
                              Disabled-by-default controllers: bootstrapsigner, tokencleaner (default [*])`;

describe('test server flags by version', () => {
  it('reads the minor version', () => {
    expect(minorOf('1.37.2')).toBe(37);
    expect(minorOf('1.20.2')).toBe(20);
    expect(() => minorOf('2.0.0')).toThrow(/not a Kubernetes 1.x version/);
  });

  it('reads the controller names a controller-manager knows', () => {
    expect(knownControllers(help137)).toEqual([
      'cronjob-controller',
      'deployment-controller',
      'node-ipam-controller',
      'node-lifecycle-controller',
      'serviceaccount-controller',
    ]);
  });

  it('turns off the insecure ports only before 1.24, and only controllers the binary knows', () => {
    expect(serverFlags('1.20.2', knownControllers(help120))).toEqual({
      apiserver: ['--insecure-port=0'],
      controllerManager: [
        '--port=0',
        '--controllers=*,-nodelifecycle,-nodeipam,-route,-cloud-node-lifecycle,-service',
      ],
    });
    expect(serverFlags('1.37.2', knownControllers(help137))).toEqual({
      apiserver: [],
      controllerManager: ['--controllers=*,-node-lifecycle-controller,-node-ipam-controller'],
    });
  });
});
