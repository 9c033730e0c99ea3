import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RestClient } from '../../scripts/control-plane/rest.js';
import { controlPlane, uniqueName } from './cluster.js';

export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
}

/**
 * A kubeconfig that acts as `user` (the admin's token with `as: user`), who gets exactly `rules` (a
 * ClusterRole and binding of its own). Its requests stand apart in the audit log as that impersonated user.
 */
export async function impersonatingKubeconfig(
  api: RestClient,
  user: string,
  rules: PolicyRule[],
): Promise<string> {
  const role = uniqueName('kpt-as');
  await api.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: role },
    rules,
  });
  await api.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: role },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
  });
  const admin = fs.readFileSync(controlPlane().kubeconfigPath, 'utf8');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kpt-as-kc-')), 'kubeconfig');
  fs.writeFileSync(file, admin.replace(/^(\s+token: .*)$/m, `$1\n    as: ${user}`), { mode: 0o600 });
  return file;
}
