import { type Connection, connect, connectAhead } from '../kube/connect.js';
import { credentialValues } from '../kube/kube-config.js';
import * as core from './toolkit.js';

/**
 * Connects with the `kubeconfig` input (contents), else KUBECONFIG, ~/.kube/config or the in-cluster service
 * account (a self-hosted runner in the cluster), masking every credential
 * value in it one by one (tokens, passwords, keys), not only the whole text.
 */
export async function connectCluster(kubeconfig: string, context: string): Promise<Connection> {
  if (kubeconfig) core.setSecret(kubeconfig);
  const conn = await connect(source(kubeconfig, context), secretMasking);
  for (const value of credentialValues(conn.access)) core.setSecret(value);
  return conn;
}

/**
 * Starts connecting with the `kubeconfig` input while the rest of the action loads (connectCluster takes
 * it). Only with the input: a run that touches no package must not need the cluster (a fork's pull request
 * has no secrets), and the input's values are masked before anything could print them.
 */
export function connectClusterAhead(kubeconfig: string, context: string): void {
  if (!kubeconfig) return;
  core.setSecret(kubeconfig);
  connectAhead(source(kubeconfig, context), secretMasking);
}

const source = (kubeconfig: string, context: string) => ({
  kubeconfigContent: kubeconfig || undefined,
  context: context || undefined,
});

// what an exec plugin or a token file hands over is a secret too
const secretMasking = { onSecret: (value: string) => core.setSecret(value) };
