import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { configSchema, parseConfig } from '../../platform/config.ts';

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  deploy?: { replicas?: number };
  depends_on?: Record<string, { condition: string }>;
}

async function loadCompose(): Promise<{ services: Record<string, Service>; volumes: Record<string, unknown> }> {
  // Docker Compose resolves YAML merge keys (`<<: *api`); so does this parse.
  return parse(await readFile(new URL('../../docker-compose.yml', import.meta.url), 'utf8'), { merge: true });
}

describe('docker-compose.yml', () => {
  it('runs Temporal on PostgreSQL and the Temporal UI from official images', async () => {
    const { services } = await loadCompose();
    expect(services.postgresql?.image).toMatch(/^postgres:\d+/);
    expect(services.temporal?.image).toMatch(/^temporalio\/auto-setup:/);
    expect(services.temporal?.environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgresql' });
    expect(services['temporal-ui']?.image).toMatch(/^temporalio\/ui:/);
    expect(services['temporal-ui']?.environment?.TEMPORAL_ADDRESS).toBe('temporal:7233');
  });

  it('builds two workers and two API replicas from this repo, all with the lake on one shared volume', async () => {
    const { services, volumes } = await loadCompose();
    for (const name of ['worker', 'api-1', 'api-2']) {
      expect(services[name]?.build, name).toBe('.');
      expect(services[name]?.volumes, name).toContain('lake:/data');
    }
    expect(services.worker?.command).toEqual(['worker']);
    expect(services.worker?.deploy?.replicas).toBe(2);
    expect(services['api-1']?.command).toEqual(['api']);
    expect(services['api-2']?.command).toEqual(['api']);
    expect(volumes).toHaveProperty('lake');
  });

  it("keeps faithscreen's service state in a PostgreSQL of its own that both API replicas share, on distinct host ports", async () => {
    const { services, volumes } = await loadCompose();
    expect(services['faithscreen-db']?.image).toMatch(/^postgres:\d+/);
    expect(services['faithscreen-db']?.volumes).toContain('faithscreen-db:/var/lib/postgresql/data');
    expect(volumes).toHaveProperty('faithscreen-db');
    const apis = [services['api-1']!, services['api-2']!];
    const urls = apis.map((api) => parseConfig(api.environment ?? {}).DATABASE_URL);
    expect(urls[0]).toMatch(/^postgresql:\/\/faithscreen:[^@]+@faithscreen-db:5432\/faithscreen$/);
    expect(urls[1]).toBe(urls[0]);
    for (const api of apis) expect(api.depends_on?.['faithscreen-db']).toEqual({ condition: 'service_healthy' });
    expect(apis.map((api) => api.ports)).toEqual([['127.0.0.1:8080:8080'], ['127.0.0.1:8081:8080']]);
    expect(apis.map((api) => parseConfig(api.environment ?? {}).baseUrl)).toEqual(['http://localhost:8080', 'http://localhost:8081']);
  });

  it('gives every built service an environment the config schema accepts, pointing at the compose Temporal', async () => {
    const { services } = await loadCompose();
    const known = new Set(Object.keys(configSchema.shape));
    for (const [name, service] of Object.entries(services).filter(([, s]) => s.build)) {
      const env = service.environment ?? {};
      expect(
        Object.keys(env).filter((key) => !known.has(key)),
        `${name} has unknown variables`,
      ).toEqual([]);
      const config = parseConfig(env);
      expect(config.embeddedTemporal, name).toBe(false);
      expect(config.temporalAddress, name).toBe('temporal:7233');
      expect(config.dataDir, name).toBe('/data');
    }
  });

  it('publishes every port on 127.0.0.1 only: Temporal, its UI and the APIs are never reachable from other hosts', async () => {
    const { services } = await loadCompose();
    const published = Object.entries(services).flatMap(([name, service]) => (service.ports ?? []).map((port) => ({ name, port })));
    expect(published.map(({ name }) => name).sort()).toEqual(['api-1', 'api-2', 'temporal', 'temporal-ui']);
    for (const { name, port } of published) expect(port, name).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    expect(services.temporal?.ports).toEqual(['127.0.0.1:7233:7233']);
    expect(services['temporal-ui']?.ports).toEqual(['127.0.0.1:8233:8080']);
  });

  it('lets each API replica listen on all interfaces inside its container', async () => {
    const { services } = await loadCompose();
    for (const name of ['api-1', 'api-2']) expect(parseConfig(services[name]?.environment ?? {}).HOST, name).toBe('0.0.0.0');
  });
});
