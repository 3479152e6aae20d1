import { randomBytes } from 'node:crypto';
import type { DuckDBAppender, DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuckDB } from './duckdb.ts';
import { SNAPSHOTS_SCHEMA } from './lake-schemas.ts';
import { publishLakeFile } from './lake-writer.ts';
import { ResultGrouper } from '../serving/result-grouper.ts';
import type { ServingBatch, StoredReport } from '../serving/serving-types.ts';
import { servingRowOf } from './serving-feed.ts';
import { publishMethodologyTexts } from './methodology-texts-lake.ts';
import { SNAPSHOT_ROW_FIELDS, type SnapshotRow } from './snapshot-schema.ts';
import { rawSql, sql, sqlIdent } from './sql.ts';

export interface WriteSnapshotsOptions {
  /**
   * Deterministic file stem, e.g. `nightly-<run>-c<chunk>`: each (market, year) partition the
   * rows touch gets `<stem>.parquet`, so a retried chunk replaces its own files.
   */
  fileStem: string;
  /** Reuse an open connection (else an in-memory DuckDB is opened and closed). */
  connection?: DuckDBConnection;
  /** DuckDB threads of the in-memory instance opened for the write (default: all cores). */
  threads?: number;
  /** Default reports the writer rendered of some of the rows (a refresh's), stored with them. */
  reports?: readonly StoredReport[];
}

export interface WrittenSnapshots {
  rows: number;
  /** Published files relative to DATA_DIR, one per (market, year) partition. */
  files: string[];
}

const FILE_STEM = /^[A-Za-z0-9_.-]+$/;

/** Staging type of each row field: dates and timestamps stay text and are cast when written. */
function stagingType(field: string): 'VARCHAR' | 'DOUBLE' | 'BOOLEAN' {
  const type = SNAPSHOTS_SCHEMA.columns.find((c) => c.name === field)?.type;
  return type === 'DOUBLE' || type === 'BOOLEAN' ? type : 'VARCHAR';
}

/** The lake's order within a snapshot file: ticker, snapshot_date, screened_at (ASCII keys). */
function compareSnapshotRows(a: SnapshotRow, b: SnapshotRow): number {
  if (a.ticker !== b.ticker) return a.ticker < b.ticker ? -1 : 1;
  if (a.snapshot_date !== b.snapshot_date) return a.snapshot_date < b.snapshot_date ? -1 : 1;
  return a.screened_at < b.screened_at ? -1 : a.screened_at > b.screened_at ? 1 : 0;
}

function checkRow(row: SnapshotRow): void {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(row.snapshot_date))
    throw new Error(`snapshot_date '${row.snapshot_date}' of ${row.market}/${row.ticker} is not YYYY-MM-DD`);
}

/**
 * Snapshot files: string columns without dictionary pages (`result_json` strings are all
 * distinct) and zstd level 1 (on a month-end chunk smaller and faster than the default level
 * 3: docs/warehouse.md, "Bytes per snapshot").
 */
const SNAPSHOT_PARQUET = { plainStrings: true, zstdLevel: 1 } as const;

/**
 * Snapshot rows staged in DuckDB as they are produced, then published in one go. A chunk adds
 * each row right after screening it, so its result JSON (kilobytes a row) dies young instead of
 * living in the JavaScript heap until the write (docs/pipelines.md, docs/benchmarks/figures-behind-code.md).
 * Rows added in file order (ticker, snapshot_date, screened_at — what a chunk produces) are
 * written as staged; otherwise the publish sorts them. Staging uses DuckDB's appender, faster
 * than an NDJSON file read back with `read_json` (docs/warehouse.md has the figures).
 */
export class SnapshotStage {
  private readonly partitions = new Map<string, [string, string]>();
  /** Each partition's rows for the serving store, results deflated as they come (docs/serving.md, "The serving store"). */
  private readonly servingRows = new Map<string, ResultGrouper>();
  /** Each partition's default reports the producer rendered (a nightly's), written with its rows. */
  private readonly reports = new Map<string, StoredReport[]>();
  private last: SnapshotRow | null = null;
  private inOrder = true;
  private count = 0;
  private closed = false;

  private constructor(
    private readonly connection: DuckDBConnection,
    private readonly table: string,
    private readonly appender: DuckDBAppender,
    private readonly release: () => Promise<void>,
  ) {}

  /** Opens a stage on `connection`, or on its own in-memory DuckDB (`threads` of it) when none is given. */
  static async open(options: { connection?: DuckDBConnection; threads?: number } = {}): Promise<SnapshotStage> {
    let connection = options.connection;
    let instance: DuckDBInstance | null = null;
    if (!connection) {
      instance = await openDuckDB(':memory:', options.threads === undefined ? {} : { threads: options.threads });
      connection = await instance.connect();
    }
    const table = `snapshot_stage_${randomBytes(4).toString('hex')}`;
    const columns = SNAPSHOT_ROW_FIELDS.map((f) => `${sqlIdent(f)} ${stagingType(f)}`).join(', ');
    await connection.run(`CREATE OR REPLACE TEMP TABLE ${sqlIdent(table)} (${columns})`);
    const appender = await connection.createAppender(table, 'main', 'temp');
    const own = connection;
    return new SnapshotStage(connection, table, appender, async () => {
      await own.run(`DROP TABLE IF EXISTS ${sqlIdent(table)}`);
      if (instance) {
        own.closeSync();
        instance.closeSync();
      }
    });
  }

  /** Rows staged so far. */
  get rows(): number {
    return this.count;
  }

  /** Stages a row, and with it its default report when the producer rendered one (`storedDefaultReport`). */
  add(row: SnapshotRow, report?: StoredReport): void {
    checkRow(row);
    if (this.last !== null && compareSnapshotRows(this.last, row) > 0) this.inOrder = false;
    this.last = row;
    const year = row.snapshot_date.slice(0, 4);
    const partition = `${row.market}/${year}`;
    this.partitions.set(partition, [row.market, year]);
    let serving = this.servingRows.get(partition);
    if (serving === undefined) this.servingRows.set(partition, (serving = new ResultGrouper()));
    serving.add(servingRowOf(row), Buffer.from(row.result_json, 'utf8'));
    if (report !== undefined) {
      const reports = this.reports.get(partition);
      if (reports === undefined) this.reports.set(partition, [report]);
      else reports.push(report);
    }
    const appender = this.appender;
    for (const field of SNAPSHOT_ROW_FIELDS) {
      const value = row[field];
      if (value === null || value === undefined) appender.appendNull();
      else if (typeof value === 'number') appender.appendDouble(value);
      else if (typeof value === 'boolean') appender.appendBoolean(value);
      else appender.appendVarchar(value);
    }
    appender.endRow();
    this.count += 1;
  }

  /**
   * Publishes the staged rows to `lake/snapshots/market=<m>/year=<y>/<fileStem>.parquet`, one
   * atomic file per partition touched, after the methodology texts their results reference.
   */
  async publish(dataDir: string, fileStem: string): Promise<WrittenSnapshots> {
    if (!FILE_STEM.test(fileStem)) throw new Error(`invalid snapshot file stem '${fileStem}': use [A-Za-z0-9_.-]`);
    this.appender.flushSync();
    if (this.count === 0) return { rows: 0, files: [] };
    // Texts first: a reader that sees a snapshot always finds the texts its result references.
    await publishMethodologyTexts(this.connection, dataDir);
    const files: string[] = [];
    for (const [market, year] of this.partitions.values()) {
      const from = sql`SELECT * FROM ${rawSql(sqlIdent(this.table))} WHERE market = ${market} AND starts_with(snapshot_date, ${year})`;
      const target = { table: 'snapshots' as const, partitionValues: [market, year], fileName: `${fileStem}.parquet` };
      // Staged in file order, the COPY keeps it instead of sorting wide rows in DuckDB.
      files.push(
        await publishLakeFile(
          this.connection,
          dataDir,
          target,
          from,
          this.inOrder ? null : 'ticker, snapshot_date, screened_at',
          SNAPSHOT_PARQUET,
          this.servingBatch(`${market}/${year}`),
        ),
      );
    }
    return { rows: this.count, files: files.sort() };
  }

  private servingBatch(partition: string): ServingBatch | undefined {
    const batch = this.servingRows.get(partition)?.finish();
    const reports = this.reports.get(partition);
    return batch && reports ? { ...batch, reports } : batch;
  }

  /** Drops the staged rows (and the DuckDB instance the stage opened). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.appender.closeSync();
    await this.release();
  }
}

/**
 * Publishes snapshot rows to `lake/snapshots/market=<m>/year=<y>/<fileStem>.parquet`, one
 * atomic file per partition touched, after the methodology texts their results reference
 * (`lake/methodology_texts/`). Thousands to hundreds of thousands of rows per call; a producer
 * of many rows can stage them as it goes with `SnapshotStage` instead.
 */
export async function writeSnapshots(
  dataDir: string,
  rows: readonly SnapshotRow[],
  options: WriteSnapshotsOptions,
): Promise<WrittenSnapshots> {
  if (!FILE_STEM.test(options.fileStem)) throw new Error(`invalid snapshot file stem '${options.fileStem}': use [A-Za-z0-9_.-]`);
  if (rows.length === 0) return { rows: 0, files: [] };
  rows.forEach(checkRow);
  const stage = await SnapshotStage.open({
    ...(options.connection ? { connection: options.connection } : {}),
    ...(options.threads === undefined ? {} : { threads: options.threads }),
  });
  try {
    const key = (market: string, ticker: string, day: string, at: string) => `${market}\u0000${ticker}\u0000${day}\u0000${at}`;
    const reports = new Map((options.reports ?? []).map((r) => [key(r.market, r.ticker, r.snapshotDate, r.screenedAt), r]));
    for (const row of [...rows].sort(compareSnapshotRows))
      stage.add(row, reports.get(key(row.market, row.ticker, row.snapshot_date, row.screened_at)));
    return await stage.publish(dataDir, options.fileStem);
  } finally {
    await stage.close();
  }
}
