import Database from 'libsql';
import { decompressResult } from '../serving/serving-codec.ts';
import { SELECT_RESULT, SELECT_TEXTS } from '../serving/serving-sql.ts';
import type { StoredResultKey } from '../serving/serving-types.ts';
import { expandResultJson, UnknownTextError } from '../warehouse/methodology-texts.ts';

interface OpenStore {
  db: Database.Database;
  select: Database.Statement;
  /** Texts by id, JSON-quoted, as expansion puts them in place of a reference. */
  texts: Map<string, string>;
}

/** One read-only connection per store file, per thread (a render thread reads one store its whole life). */
const stores = new Map<string, OpenStore>();

function loadTexts(db: Database.Database): Map<string, string> {
  const texts = new Map<string, string>();
  for (const row of db.prepare(SELECT_TEXTS).all() as Array<{ text_id: string; text: string }>)
    texts.set(String(row.text_id), JSON.stringify(String(row.text)));
  return texts;
}

function openStore(storePath: string): OpenStore {
  let store = stores.get(storePath);
  if (store === undefined) {
    const db = new Database(storePath, { readonly: true });
    // As the API's own connection: a reader that meets a checkpoint's brief lock waits rather than fails.
    db.exec('PRAGMA busy_timeout = 30000');
    store = { db, select: db.prepare(SELECT_RESULT), texts: loadTexts(db) };
    stores.set(storePath, store);
  }
  return store;
}

/**
 * The stored result of a snapshot as JSON text, methodology texts expanded, as the API's own
 * reads give it. Texts are read again once on a reference this thread has not loaded (texts
 * are stored before the snapshots that use them).
 */
export function readStoredResultJson(key: StoredResultKey): string {
  const store = openStore(key.storePath);
  const record = store.select.get(key.market, key.ticker, key.snapshotDate) as { result: Uint8Array; block: Uint8Array | null } | undefined;
  if (record === undefined)
    throw new Error(`the stored result of ${key.market}/${key.ticker} ${key.snapshotDate} is not in the serving store`);
  const json = decompressResult(record.result, record.block).toString('utf8');
  try {
    return expandResultJson(json, (id) => store.texts.get(id));
  } catch (error) {
    if (!(error instanceof UnknownTextError)) throw error;
    store.texts = loadTexts(store.db);
    return expandResultJson(json, (id) => store.texts.get(id));
  }
}
