import { inflateRawSync } from 'node:zlib';

/**
 * A stored result as a point-read sidecar holds it (docs/serving.md, "Reads under load"): the row's
 * `result_json` deflated on its own, and its file's deflate dictionary. The dictionary lives in
 * shared memory, so posting a `DeflatedResult` to a render thread copies ~1 kB, and the thread,
 * not the event loop, inflates it.
 */
export interface DeflatedResult {
  deflated: Uint8Array;
  dictionary: Uint8Array;
}

/** A stored result's JSON: UTF-8 bytes (a Buffer, or a plain view once posted to a thread), or still deflated as its sidecar holds it. */
export type StoredResult = Uint8Array | DeflatedResult;

/** The result's UTF-8 JSON (inflated when it came deflated from a sidecar). */
export function storedResultBytes(result: StoredResult): Buffer {
  if (result instanceof Uint8Array) return Buffer.from(result.buffer, result.byteOffset, result.byteLength);
  return inflateRawSync(result.deflated, { dictionary: result.dictionary });
}

/** A copy of `bytes` in shared memory (a sidecar's dictionary: read by every render thread, copied to none). */
export function sharedCopy(bytes: Uint8Array): Uint8Array {
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  shared.set(bytes);
  return shared;
}
