import type { ServiceMigration } from './migration.ts';

/**
 * Attestations: signing-key metadata (never the secrets: those are files under
 * DATA_DIR/secrets/signing-keys), certificates and revocations. Certificates are permanent and
 * append-only; triggers refuse DELETE and UPDATE so no code path, and no hand-typed SQL that
 * leaves the triggers in place, can change or remove one. A revocation is a row of its own,
 * equally permanent.
 */
export const ATTESTATIONS_MIGRATION: ServiceMigration = {
  version: 2,
  name: 'attestations',
  libsql: `
CREATE TABLE signing_keys (
  key_id         TEXT PRIMARY KEY,
  status         TEXT NOT NULL CHECK (status IN ('active', 'retired', 'distrusted')),
  created_at     TEXT NOT NULL,
  retired_at     TEXT,
  distrusted_at  TEXT,
  distrust_note  TEXT
);
-- At most one key signs new certificates.
CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (status) WHERE status = 'active';
CREATE TRIGGER signing_keys_kept BEFORE DELETE ON signing_keys
BEGIN SELECT RAISE(ABORT, 'signing keys are kept for verification: DELETE is refused; distrust the key instead'); END;
CREATE TRIGGER signing_keys_distrust_is_final BEFORE UPDATE ON signing_keys
WHEN OLD.status = 'distrusted' OR NEW.key_id <> OLD.key_id OR NEW.created_at <> OLD.created_at
BEGIN SELECT RAISE(ABORT, 'a distrusted signing key stays distrusted, and a key''s id and creation date never change'); END;

CREATE TABLE certificates (
  cert_id                 TEXT PRIMARY KEY,
  payload_version         INTEGER NOT NULL,
  market                  TEXT NOT NULL,
  ticker                  TEXT NOT NULL,
  standard                TEXT NOT NULL,
  verdict                 TEXT NOT NULL,
  score                   REAL,
  purification_per_share  REAL,
  as_of                   TEXT NOT NULL,
  minted_at               TEXT NOT NULL,
  snapshot_source         TEXT NOT NULL,
  snapshot_day            TEXT NOT NULL,
  key_id                  TEXT NOT NULL REFERENCES signing_keys (key_id),
  sig                     TEXT NOT NULL,
  company_name            TEXT NOT NULL,
  issuer_type             TEXT NOT NULL,
  -- Not signed: the pinned snapshot (exact identity and index values at mint) and who minted.
  snapshot_screened_at    TEXT NOT NULL,
  snapshot_pin            TEXT NOT NULL,
  minted_by_key_id        TEXT,
  minted_by_account       TEXT
);
CREATE INDEX certificates_by_ticker ON certificates (market, ticker);
CREATE TRIGGER certificates_never_deleted BEFORE DELETE ON certificates
BEGIN SELECT RAISE(ABORT, 'certificates are permanent: DELETE is refused; revoke it with a dated note instead'); END;
CREATE TRIGGER certificates_append_only BEFORE UPDATE ON certificates
BEGIN SELECT RAISE(ABORT, 'certificates are append-only: UPDATE is refused'); END;

CREATE TABLE revocations (
  cert_id     TEXT PRIMARY KEY REFERENCES certificates (cert_id),
  revoked_at  TEXT NOT NULL,
  note        TEXT NOT NULL CHECK (length(trim(note)) > 0)
);
CREATE TRIGGER revocations_permanent_delete BEFORE DELETE ON revocations
BEGIN SELECT RAISE(ABORT, 'revocations are permanent: DELETE is refused'); END;
CREATE TRIGGER revocations_permanent_update BEFORE UPDATE ON revocations
BEGIN SELECT RAISE(ABORT, 'revocations are permanent: UPDATE is refused'); END;
`,
  // The same tables and guarantees. PostgreSQL's triggers call a function; one function raises
  // the message each trigger passes it. TRUNCATE skips row triggers, so it is refused on its own.
  postgres: `
CREATE FUNCTION faithscreen_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION '%', TG_ARGV[0]; END
$$;

CREATE TABLE signing_keys (
  key_id         TEXT PRIMARY KEY,
  status         TEXT NOT NULL CHECK (status IN ('active', 'retired', 'distrusted')),
  created_at     TEXT NOT NULL,
  retired_at     TEXT,
  distrusted_at  TEXT,
  distrust_note  TEXT
);
CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (status) WHERE status = 'active';
CREATE TRIGGER signing_keys_kept BEFORE DELETE ON signing_keys FOR EACH ROW
EXECUTE FUNCTION faithscreen_refuse('signing keys are kept for verification: DELETE is refused; distrust the key instead');
CREATE TRIGGER signing_keys_not_truncated BEFORE TRUNCATE ON signing_keys FOR EACH STATEMENT
EXECUTE FUNCTION faithscreen_refuse('signing keys are kept for verification: TRUNCATE is refused; distrust the key instead');
CREATE TRIGGER signing_keys_distrust_is_final BEFORE UPDATE ON signing_keys FOR EACH ROW
WHEN (OLD.status = 'distrusted' OR NEW.key_id <> OLD.key_id OR NEW.created_at <> OLD.created_at)
EXECUTE FUNCTION faithscreen_refuse('a distrusted signing key stays distrusted, and a key''s id and creation date never change');

CREATE TABLE certificates (
  cert_id                 TEXT PRIMARY KEY,
  payload_version         INTEGER NOT NULL,
  market                  TEXT NOT NULL,
  ticker                  TEXT NOT NULL,
  standard                TEXT NOT NULL,
  verdict                 TEXT NOT NULL,
  score                   DOUBLE PRECISION,
  purification_per_share  DOUBLE PRECISION,
  as_of                   TEXT NOT NULL,
  minted_at               TEXT NOT NULL,
  snapshot_source         TEXT NOT NULL,
  snapshot_day            TEXT NOT NULL,
  key_id                  TEXT NOT NULL REFERENCES signing_keys (key_id),
  sig                     TEXT NOT NULL,
  company_name            TEXT NOT NULL,
  issuer_type             TEXT NOT NULL,
  snapshot_screened_at    TEXT NOT NULL,
  snapshot_pin            TEXT NOT NULL,
  minted_by_key_id        TEXT,
  minted_by_account       TEXT
);
CREATE INDEX certificates_by_ticker ON certificates (market, ticker);
CREATE TRIGGER certificates_never_deleted BEFORE DELETE ON certificates FOR EACH ROW
EXECUTE FUNCTION faithscreen_refuse('certificates are permanent: DELETE is refused; revoke it with a dated note instead');
CREATE TRIGGER certificates_not_truncated BEFORE TRUNCATE ON certificates FOR EACH STATEMENT
EXECUTE FUNCTION faithscreen_refuse('certificates are permanent: TRUNCATE is refused; revoke it with a dated note instead');
CREATE TRIGGER certificates_append_only BEFORE UPDATE ON certificates FOR EACH ROW
EXECUTE FUNCTION faithscreen_refuse('certificates are append-only: UPDATE is refused');

CREATE TABLE revocations (
  cert_id     TEXT PRIMARY KEY REFERENCES certificates (cert_id),
  revoked_at  TEXT NOT NULL,
  note        TEXT NOT NULL CHECK (length(trim(note)) > 0)
);
CREATE TRIGGER revocations_permanent_delete BEFORE DELETE ON revocations FOR EACH ROW
EXECUTE FUNCTION faithscreen_refuse('revocations are permanent: DELETE is refused');
CREATE TRIGGER revocations_not_truncated BEFORE TRUNCATE ON revocations FOR EACH STATEMENT
EXECUTE FUNCTION faithscreen_refuse('revocations are permanent: TRUNCATE is refused');
CREATE TRIGGER revocations_permanent_update BEFORE UPDATE ON revocations FOR EACH ROW
EXECUTE FUNCTION faithscreen_refuse('revocations are permanent: UPDATE is refused');
`,
};
