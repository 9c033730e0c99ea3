import { type Connection, connect } from '../kube/connect.js';
import { credentialValues } from '../kube/kube-config.js';
import * as core from './toolkit.js';

/**
 * Connects with the `kubeconfig` input (contents), else KUBECONFIG, ~/.kube/config or the in-cluster service
 * account (a self-hosted runner in the cluster), masking every credential
 * value in it one by one (tokens, passwords, keys), not only the whole text.
 */
export async function connectCluster(kubeconfig: string, context: string): Promise<Connection> {
  if (kubeconfig) core.setSecret(kubeconfig);
  const conn = await connect(
    { kubeconfigContent: kubeconfig || undefined, context: context || undefined },
    // what an exec plugin or a token file hands over is a secret too
    { onSecret: (value) => core.setSecret(value) },
  );
  for (const value of credentialValues(conn.access)) core.setSecret(value);
  return conn;
}
