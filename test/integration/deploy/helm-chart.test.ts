/**
 * The Helm chart (deploy/helm/mcp-switchboard), rendered by a real Helm and every object checked
 * against the Kubernetes API schemas (kubernetes-models), with the settings a safe deployment
 * relies on: non-root, read-only root filesystem, probes on /healthz and /readyz that pass the
 * Host check, config.json a valid Switchboard config, the main token from a Secret, replicas
 * (and an autoscaler, a disruption budget) only with a Redis to share their state, a stick table
 * for 2025-era sessions behind HAProxy's ingress controller, and a grace period that covers the drain.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1';
import { ConfigMap, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { parseConfig } from '../../../electron/core/platform/index.js';
import { findHelm } from '../../helpers/helmBinary.js';

const CHART = fileURLToPath(new URL('../../../deploy/helm/mcp-switchboard', import.meta.url));
const run = promisify(execFile);
const { helm, skip } = findHelm();

type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  data?: Record<string, string>;
  [key: string]: unknown;
};

/** A model class per kind the chart renders: each validates an object against the API's schema. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'networking.k8s.io/v1/Ingress': Ingress,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

async function render(...sets: string[]): Promise<K8sObject[]> {
  const args = ['template', 'sb', CHART, ...sets.flatMap((set) => ['--set-json', set])];
  const { stdout } = await run(helm!, args, { timeout: 30_000 });
  return parseAllDocuments(stdout)
    .map((document) => document.toJS() as K8sObject | null)
    .filter((object): object is K8sObject => object !== null);
}

async function renderError(...sets: string[]): Promise<string> {
  try {
    await render(...sets);
  } catch (error) {
    return String((error as { stderr?: string }).stderr ?? error);
  }
  throw new Error('helm rendered values it should have refused');
}

function validateAll(objects: K8sObject[]): void {
  for (const object of objects) {
    const model = MODELS[`${object.apiVersion}/${object.kind}`];
    expect(model, `a schema for ${object.apiVersion} ${object.kind}`).toBeDefined();
    expect(() => new model!(object as never).validate(), `${object.kind} ${object.metadata.name}`).not.toThrow();
  }
}

/** The parts of the rendered pod the tests read. */
interface RenderedPod {
  metadata: { annotations: Record<string, string> };
  spec: {
    securityContext: Record<string, unknown>;
    containers: {
      args: string[];
      env: unknown[];
      securityContext: Record<string, unknown>;
      livenessProbe: { httpGet: { path: string; port: string; httpHeaders?: unknown[] } };
      readinessProbe: { httpGet: { path: string; port: string; httpHeaders?: unknown[] } };
      volumeMounts: { mountPath: string; readOnly?: boolean }[];
    }[];
  };
}

function podOf(objects: K8sObject[]): RenderedPod {
  return (find(objects, 'Deployment') as unknown as { spec: { template: RenderedPod } }).spec.template;
}

function find(objects: K8sObject[], kind: string): K8sObject {
  const found = objects.find((object) => object.kind === kind);
  if (!found) throw new Error(`no ${kind} rendered`);
  return found;
}

describe.skipIf(skip !== undefined)(`Helm chart${skip ? ` (SKIPPED: ${skip})` : ''}`, () => {
  it('passes helm lint --strict', async () => {
    const { stdout } = await run(helm!, ['lint', '--strict', CHART], { timeout: 30_000 });
    expect(stdout).toContain('0 chart(s) failed');
  });

  it('renders objects that match the Kubernetes schemas, with a hardened pod and working probes', async () => {
    const objects = await render('ingress={"enabled":true,"host":"mcp.example.com"}');
    validateAll(objects);
    expect(objects.map((object) => object.kind).sort()).toEqual(
      ['ConfigMap', 'Deployment', 'Ingress', 'Secret', 'Service', 'ServiceAccount'].sort(),
    );
    const pod = podOf(objects).spec;
    const container = pod.containers[0]!;
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(container.livenessProbe.httpGet).toMatchObject({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe.httpGet).toMatchObject({ path: '/readyz', port: 'http' });
    // serve refuses requests naming a Host it does not serve; the kubelet's default is the pod's IP.
    expect(container.readinessProbe.httpGet.httpHeaders).toEqual([{ name: 'Host', value: 'localhost' }]);
    expect(container.args).toEqual(expect.arrayContaining(['serve', '--config', '/etc/mcp-switchboard/config.json']));
    // --quiet: serve prints no bearer token and no login link, which would land in the pod's log.
    expect(container.args).toContain('--quiet');
    const mounts = new Map(container.volumeMounts.map((mount) => [mount.mountPath, mount]));
    expect(mounts.get('/etc/mcp-switchboard')).toMatchObject({ readOnly: true });
    expect(mounts.has('/var/lib/mcp-switchboard')).toBe(true);
    const ingress = find(objects, 'Ingress');
    // Hashing Mcp-Session-Id cannot keep a session on the replica that chose its ID (docs/deploy.md).
    expect(ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/upstream-hash-by']).toBeUndefined();
    const deployment = find(objects, 'Deployment') as unknown as {
      spec: { template: { spec: { terminationGracePeriodSeconds: number; containers: { lifecycle: unknown }[] } } };
    };
    expect(deployment.spec.template.spec.containers[0]!.lifecycle).toEqual({
      preStop: { exec: { command: ['sleep', '5'] } },
    });
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBe(30);
  });

  it('keeps 2025-era sessions on their replica behind HAProxy’s ingress controller with a stick table learnt from the response', async () => {
    const objects = await render('ingress={"enabled":true,"className":"haproxy","host":"mcp.example.com"}');
    validateAll(objects);
    const snippet = find(objects, 'Ingress').metadata.annotations?.['haproxy.org/backend-config-snippet'] ?? '';
    expect(snippet).toContain('stick store-response res.hdr(mcp-session-id)');
    expect(snippet).toContain('stick match req.hdr(mcp-session-id)');
    expect(snippet).toContain('option redispatch');
  });

  it('runs replicas, an autoscaler and a disruption budget once a Redis is named, its URL from a Secret', async () => {
    const objects = await render('replicaCount=3', 'redis={"url":"redis://redis.team.svc:6379/0"}');
    validateAll(objects);
    expect((find(objects, 'Deployment') as unknown as { spec: { replicas: number } }).spec.replicas).toBe(3);
    expect(find(objects, 'PodDisruptionBudget')).toBeDefined();
    const env = podOf(objects).spec.containers[0]!.env;
    expect(env).toContainEqual({
      name: 'SWITCHBOARD_REDIS_URL',
      valueFrom: { secretKeyRef: { name: 'sb-mcp-switchboard-redis', key: 'url' } },
    });
    const redisSecret = objects.find((object) => object.kind === 'Secret' && object.metadata.name.endsWith('-redis'));
    expect(Buffer.from(redisSecret?.data?.['url'] ?? '', 'base64').toString()).toBe('redis://redis.team.svc:6379/0');
    const scaled = await render('autoscaling={"enabled":true}', 'redis={"existingSecret":"team-redis","key":"uri"}');
    validateAll(scaled);
    expect(find(scaled, 'HorizontalPodAutoscaler')).toBeDefined();
    expect(scaled.some((object) => object.kind === 'Secret' && object.metadata.name.endsWith('-redis'))).toBe(false);
    expect(podOf(scaled).spec.containers[0]!.env).toContainEqual({
      name: 'SWITCHBOARD_REDIS_URL',
      valueFrom: { secretKeyRef: { name: 'team-redis', key: 'uri' } },
    });
  });

  it('refuses a grace period shorter than preStop, the drain and the stop together', async () => {
    expect(await renderError('terminationGracePeriodSeconds=12')).toContain('must be at least');
    expect(await renderError('config={"proxy":{"drainMs":30000}}')).toContain('= 40');
  });

  it('mounts config.json as a valid Switchboard config and rolls the pods when it changes', async () => {
    const config = {
      mcpServers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } },
      policy: { defaultRule: 'deny' },
    };
    const objects = await render(`config=${JSON.stringify(config)}`);
    const data = find(objects, 'ConfigMap').data ?? {};
    const parsed = parseConfig(JSON.parse(data['config.json']!));
    expect(parsed.problems).toEqual([]);
    expect(parsed.config?.backends.map((backend) => backend.id)).toEqual(['memory']);
    const checksum = (objects: K8sObject[]) => podOf(objects).metadata.annotations['checksum/config'];
    const other = await render(`config=${JSON.stringify({ ...config, policy: { defaultRule: 'allow' } })}`);
    expect(checksum(other)).not.toBe(checksum(objects));
  });

  it("takes the main token from the user's Secret when named, and then renders none of its own", async () => {
    const objects = await render('mainToken={"existingSecret":"team-token","key":"value"}');
    expect(objects.some((object) => object.kind === 'Secret')).toBe(false);
    const env = podOf(objects).spec.containers[0]!.env;
    expect(env).toContainEqual({
      name: 'SWITCHBOARD_TOKEN',
      valueFrom: { secretKeyRef: { name: 'team-token', key: 'value' } },
    });
  });

  it('refuses several replicas or an autoscaler without a Redis, which would split their state', async () => {
    expect(await renderError('replicaCount=3')).toContain('need the state replicas share');
    expect(await renderError('autoscaling={"enabled":true}')).toContain('need the state replicas share');
  });

  it('refuses values of the wrong type or unknown keys, naming them', async () => {
    expect(await renderError('service={"port":"http"}')).toContain('/service/port');
    expect(await renderError('replicas=2')).toContain("'replicas' not allowed");
  });
});
