import { createEdgarSource } from '../../sources/edgar/edgar-source.ts';
import { withDuckDB } from '../../warehouse/duckdb.ts';

export interface EdgarFolderContents {
  /** Listings by ticker: CIK and SIC as the EDGAR source reads them. */
  listings: Map<string, { sourceRef: string; sic: string | null }>;
  /** Fundamentals rows per ticker. */
  fundamentals: Map<string, number>;
}

/** Reads a delivery folder the way ingestion does: the EDGAR source stages its tables into in-memory DuckDB. */
export async function readEdgarFolder(folder: string): Promise<EdgarFolderContents> {
  return withDuckDB(':memory:', {}, async (connection) => {
    const source = createEdgarSource(folder);
    const [chunk] = await source.chunks(connection);
    if (!chunk) throw new Error('the EDGAR source found no chunk');
    await source.listings(chunk, { connection, table: 'staged_listings' });
    await source.fundamentals(chunk, { connection, table: 'staged_fundamentals' });
    const listings = (await connection.runAndReadAll('SELECT ticker, source_ref, sic FROM staged_listings')).getRowsJS();
    const fundamentals = (
      await connection.runAndReadAll('SELECT ticker, count(*)::INTEGER FROM staged_fundamentals GROUP BY ticker')
    ).getRowsJS();
    return {
      listings: new Map(
        listings.map(([ticker, sourceRef, sic]) => [
          String(ticker),
          { sourceRef: String(sourceRef), sic: sic === null ? null : String(sic) },
        ]),
      ),
      fundamentals: new Map(fundamentals.map(([ticker, n]) => [String(ticker), Number(n)])),
    };
  });
}
