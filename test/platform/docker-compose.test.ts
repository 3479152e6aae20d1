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
}

async function loadCompose(): Promise<{ services: Record<string, Service>; volumes: Record<string, unknown> }> {
  return parse(await readFile(new URL('../../docker-compose.yml', import.meta.url), 'utf8'));
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

  it('builds the worker and the API from this repo with the lake on a shared volume', async () => {
    const { services, volumes } = await loadCompose();
    for (const name of ['worker', 'api']) {
      expect(services[name]?.build).toBe('.');
      expect(services[name]?.volumes).toContain('lake:/data');
    }
    expect(services.worker?.command).toEqual(['worker']);
    expect(services.api?.command).toEqual(['api']);
    expect(volumes).toHaveProperty('lake');
  });

  it('gives every built service an environment the config schema accepts, pointing at the compose Temporal', async () => {
    const { services } = await loadCompose();
    const known = new Set(Object.keys(configSchema.shape));
    for (const [name, service] of Object.entries(services).filter(([, s]) => s.build)) {
      const env = service.environment ?? {};
      expect(Object.keys(env).filter((key) => !known.has(key)), `${name} has unknown variables`).toEqual([]);
      const config = parseConfig(env);
      expect(config.embeddedTemporal, name).toBe(false);
      expect(config.temporalAddress, name).toBe('temporal:7233');
      expect(config.dataDir, name).toBe('/data');
    }
  });

  it('lets the API listen on all interfaces inside its container', async () => {
    const { services } = await loadCompose();
    expect(parseConfig(services.api?.environment ?? {}).HOST).toBe('0.0.0.0');
  });
});
