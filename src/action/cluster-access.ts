import * as core from '@actions/core';
import { type Connection, connect } from '../kube/connect.js';
import { credentialValues } from '../kube/kube-config.js';

/**
 * Connects with the `kubeconfig` input (contents) or the runner's KUBECONFIG, masking every credential
 * value in it one by one (tokens, passwords, keys), not only the whole text.
 */
export async function connectCluster(kubeconfig: string, context: string): Promise<Connection> {
  if (kubeconfig) core.setSecret(kubeconfig);
  const conn = await connect({ kubeconfigContent: kubeconfig || undefined, context: context || undefined });
  for (const value of credentialValues(conn.access.kc)) core.setSecret(value);
  return conn;
}
