import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Deployment } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

// What cannot run here (a container build, a cluster) checked statically: the Kubernetes
// manifests against the Kubernetes 1.33 schemas (kubernetes-models, offline), and the relations
// between them those schemas cannot see; the Containerfile's stages against the files they name.

const root = fileURLToPath(new URL('..', import.meta.url));
const manifests = join(root, 'deploy', 'kubernetes');

type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; spec: any };

const KINDS: Record<string, new (data: any) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'v1/Service': Service,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

function load(): Manifest[] {
  const all: Manifest[] = [];
  for (const file of readdirSync(manifests).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')) {
    for (const doc of parseAllDocuments(readFileSync(join(manifests, file), 'utf8'))) {
      expect(doc.errors, file).toEqual([]);
      all.push(doc.toJS() as Manifest);
    }
  }
  return all;
}

const flagValue = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe('deploy/kubernetes', () => {
  const objects = load();
  const one = (kind: string) => {
    const found = objects.filter((o) => o.kind === kind);
    expect(found, kind).toHaveLength(1);
    return found[0];
  };

  it('every manifest validates against the Kubernetes schemas, and the kustomization lists them all', () => {
    for (const o of objects) {
      const Model = KINDS[`${o.apiVersion}/${o.kind}`];
      expect(Model, `${o.apiVersion}/${o.kind} is a kind this test validates`).toBeDefined();
      expect(() => new Model(o).validate(), `${o.kind} ${o.metadata.name}`).not.toThrow();
    }
    const kustomization = parseAllDocuments(readFileSync(join(manifests, 'kustomization.yaml'), 'utf8'))[0].toJS();
    expect([...kustomization.resources].sort()).toEqual(
      readdirSync(manifests)
        .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
        .sort(),
    );
  });

  it('a bad manifest fails the same validation', () => {
    const broken = structuredClone(one('Deployment'));
    broken.spec.replicas = 'three';
    expect(() => new Deployment(broken as any).validate()).toThrow();
  });

  it('the Deployment serves from object storage, probes /readyz and /healthz on its port, caches on a volume, sets resources', () => {
    const deployment = one('Deployment');
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    const args: string[] = container.args;
    expect(args[0]).toBe('serve');
    expect(args[1]).toMatch(/^s3:\/\/[a-z0-9.-]+\//);
    expect(container.readinessProbe.httpGet).toMatchObject({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe.httpGet).toMatchObject({ path: '/healthz', port: 'http' });
    expect(container.ports).toContainEqual({ name: 'http', containerPort: Number(flagValue(args, '--port')) });
    expect(flagValue(args, '--host')).toBe('0.0.0.0');
    const cacheDir = flagValue(args, '--cache-dir');
    const mount = container.volumeMounts.find((m: any) => m.mountPath === cacheDir);
    expect(mount, 'a volume at --cache-dir').toBeDefined();
    expect(pod.volumes.map((v: any) => v.name)).toContain(mount.name);
    expect(container.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container.resources.limits.memory).toBeDefined();
    expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    // The kubelet's SIGKILL comes after the drain's own limit.
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(Number(flagValue(args, '--shutdown-timeout')));
    expect(deployment.spec.selector.matchLabels).toEqual(deployment.spec.template.metadata.labels);
  });

  it("the Service and the PodDisruptionBudget select the Deployment's pods, and the budget leaves some serving", () => {
    const deployment = one('Deployment');
    const labels = deployment.spec.template.metadata.labels;
    const service = one('Service');
    expect(service.spec.selector).toEqual(labels);
    expect(service.spec.ports[0].targetPort).toBe('http');
    const pdb = one('PodDisruptionBudget');
    expect(pdb.spec.selector.matchLabels).toEqual(labels);
    expect(pdb.spec.maxUnavailable).toBeLessThan(deployment.spec.replicas);
  });
});

describe('Containerfile', () => {
  const text = readFileSync(join(root, 'Containerfile'), 'utf8').replace(/\\\n/g, ' ');
  const lines = text.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
  const instructions = lines.map((l) => {
    const [word, ...rest] = l.trim().split(/\s+/);
    return { word: word.toUpperCase(), args: rest };
  });

  it('builds in one stage and runs in a slim one as a non-root user, with a health check and a drain on SIGTERM', () => {
    const stages = instructions.filter((i) => i.word === 'FROM');
    expect(stages.length).toBe(2);
    expect(stages[0].args.join(' ')).toMatch(/node:20\.20-.* AS build$/);
    expect(stages[1].args[0]).toMatch(/node:20\.20-.*slim/);
    const runtime = instructions.slice(instructions.indexOf(stages[1]));
    expect(runtime.find((i) => i.word === 'USER')?.args[0]).not.toMatch(/^(root|0)$/);
    expect(runtime.find((i) => i.word === 'HEALTHCHECK')?.args.join(' ')).toContain('/healthz');
    expect(runtime.find((i) => i.word === 'STOPSIGNAL')?.args[0]).toBe('SIGTERM');
    expect(instructions.some((i) => i.word === 'RUN' && i.args.join(' ').includes('npm ci'))).toBe(true);
  });

  it('copies only files that exist (from the build context) or that the build stage makes', () => {
    for (const i of instructions.filter((x) => x.word === 'COPY')) {
      const fromStage = i.args.some((a) => a.startsWith('--from='));
      const sources = i.args.filter((a) => !a.startsWith('--')).slice(0, -1);
      for (const source of sources) {
        if (fromStage) expect(source.startsWith('/app/'), source).toBe(true);
        else expect(existsSync(join(root, source)), `COPY ${source}`).toBe(true);
      }
    }
    // What the runtime copies from the build stage is made there: the build's output, the addon.
    const built = instructions.filter((x) => x.word === 'COPY' && x.args.some((a) => a === '--from=build')).map((x) => x.args[1]);
    expect(built).toEqual(['/app/package.json', '/app/node_modules', '/app/dist', '/app/native/build/Release/omm_mmap.node']);
    expect(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')).toContain('"outDir": "dist"');
    expect(readFileSync(join(root, 'native', 'binding.gyp'), 'utf8')).toContain('omm_mmap');
  });
});
