import type { AccessOptions } from '../access/open-access.ts';
import type { ServiceStateOptions } from '../service-state/db.ts';
import type { Config } from './config.ts';

/** Where the configuration puts the service state: PostgreSQL at DATABASE_URL, else DATA_DIR/service.db. */
export function serviceStateOf(config: Config): ServiceStateOptions {
  return { dataDir: config.dataDir, databaseUrl: config.DATABASE_URL };
}

/** What the API and the access CLI open access control with. */
export function accessOptionsOf(config: Config): AccessOptions {
  return { ...serviceStateOf(config), hashSecretHex: config.API_KEY_HASH_SECRET, upgradeUrl: config.upgradeUrl };
}
