import type { Logger } from 'pino';
import { CertificateStore } from '../attest/certificate-store.ts';
import { SigningKeys } from '../attest/signing-keys.ts';
import type { ServiceDb } from '../service-state/db.ts';
import type { ScreenService } from './screen-service.ts';

/** What the platform passes the attestation routes: the service database and where the signing secrets live. */
export interface AttestDeps {
  /** The open service database (DATA_DIR/service.db). */
  db: ServiceDb;
  /** DATA_DIR: signing secrets are files under DATA_DIR/secrets/signing-keys. */
  dataDir: string;
  /** Verification requests allowed per IP address per window (spec: 60 a minute). */
  verifyRateLimit?: { limit: number; windowMs: number };
}

/** The attestation use-cases' context: certificates, signing keys, the screening reads and the links' base URL. */
export interface AttestContext {
  screen: ScreenService;
  certificates: CertificateStore;
  keys: SigningKeys;
  baseUrl: string;
  now: () => Date;
  logger?: Logger;
}

export function createAttestContext(deps: AttestDeps, screen: ScreenService, baseUrl: string): AttestContext {
  return {
    screen,
    certificates: new CertificateStore(deps.db),
    keys: new SigningKeys(deps.db, deps.dataDir, screen.now),
    baseUrl,
    now: screen.now,
    ...(screen.logger ? { logger: screen.logger } : {}),
  };
}
