import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOriginAndClone } from '../support/git-repo.js';
import { type GitHubServer, startGitHubServer } from '../support/github-server.js';
import {
  configMap,
  controlPlane,
  namespace,
  uniqueName,
  useCluster,
  yamlOf,
} from '../support/harness/index.js';
import { runAction } from '../support/run-action.js';

const ZERO = '0'.repeat(40);

/**
 * The bundled action (dist/index.js) on a push whose package holds a Namespace another inventory owns:
 * nothing is deployed, so the step fails, with an annotation at the Namespace's file and line naming the
 * owner and the fix; `allow-skipped: true` lets it pass with a warning.
 */
describe('the action fails the step on blocked objects', () => {
  const cluster = useCluster({ namespace: 'actblocked' });
  const { api } = cluster;
  let gh: GitHubServer;
  let kubeconfig: string;
  const repository = { full_name: 'acme/platform', default_branch: 'main' };

  beforeAll(async () => {
    kubeconfig = fs.readFileSync(controlPlane().kubeconfigPath, 'utf8');
    gh = await startGitHubServer({ owner: 'acme', repo: 'platform' });
  });
  afterAll(async () => {
    await gh?.close();
  });

  it('names the object, its owner and the fix in an ::error annotation at file and line', async () => {
    const team = uniqueName('team');
    // another package's inventory owns the Namespace
    const owner = await api.request(
      'POST',
      '/api/v1/namespaces',
      namespace(team, { annotations: { 'config.k8s.io/owning-inventory': 'someone-else' } }),
    );
    expect(owner.status).toBe(201);
    const repo = createOriginAndClone();
    const inv = uniqueName('inv');
    const sha = repo.commit({
      'deploy/team/Kptfile': 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: team\n',
      'deploy/team/resourcegroup.yaml': `apiVersion: kpt.dev/v1alpha1\nkind: ResourceGroup\nmetadata:\n  name: ${inv}\n  namespace: ${cluster.ns}\n  labels:\n    cli-utils.sigs.k8s.io/inventory-id: ${inv}-id\n`,
      // a comment first: the annotation names line 2
      'deploy/team/ns.yaml': `# the team's namespace\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${team}\n`,
      'deploy/team/cm.yaml': yamlOf(configMap('app', { k: 'v' }, { namespace: team })),
    });
    const push = (extra: Record<string, string> = {}) =>
      runAction({
        event: 'push',
        payload: { ref: 'refs/heads/main', before: ZERO, after: sha, repository },
        inputs: { kubeconfig, 'github-token': gh.writeToken, namespace: cluster.ns, ...extra },
        workspace: repo.shallowCheckout('main'),
        apiUrl: gh.url,
        sha,
        ref: 'refs/heads/main',
      });

    const run = await push();
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(
        `::error title=kpt-live-action%3A Namespace/${team} blocked,file=deploy/team/ns.yaml,line=2::Namespace/${team} was not deployed: inventory policy prevented actuation \\(strategy: Apply, status: NoMatch, policy: MustMatch\\): owned by another inventory: inventory someone-else\\. Fix: destroy the package that owns it \\(inventory someone-else\\), or take it over with inventory-policy: force-adopt`,
      ),
    );
    expect(run.stdout).toMatch(
      /::error title=kpt-live-action%3A ConfigMap\/app blocked,file=deploy\/team\/cm.yaml,line=1::/,
    );
    expect(run.stdout).toMatch(
      new RegExp(`::error::deploy/team: Namespace/${team} blocked: inventory policy`),
    );
    expect(run.summary).toContain('2 object(s) blocked, not deployed');
    const result = JSON.parse(run.outputs.result);
    expect(result.packages[0].outcome).toBe('failed');

    const allowed = await push({ 'allow-skipped': 'true' });
    expect(allowed.code, allowed.stdout).toBe(0);
    expect(allowed.stdout).toMatch(
      new RegExp(`::warning title=kpt-live-action%3A Namespace/${team} blocked`),
    );
    await api.request('DELETE', `/api/v1/namespaces/${team}`);
  });
});
