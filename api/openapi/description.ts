/** The design decisions of the contract, stated once for the OpenAPI document (docs/api.md says the same at length). */
export const API_DESCRIPTION = `Faith-based compliance screening: 10 frameworks over 124,000+ listed tickers in 46 markets, with history from 2009-01-01.

**Synthetic data.** The bundled sample universe is generated, not real: such responses carry \`provenance.synthetic: true\` and a plain-words \`notice\`.

**Errors.** Every error is JSON \`{"detail": ...}\`. 400: an invalid value (unknown market, with the valid keys; unknown framework ids, with the 10 valid ids; a malformed ticker; \`as_of\` malformed, before 2009-01-01 or in the future; a limit out of range; more than 100 batch items). 422: a malformed shape (body not a JSON object, wrong types, repeated query parameters, invalid JSON). 413: body over 64 kB. 404: unknown ticker, fund, route, or no history at or before \`as_of\`. 503: a re-screen was required but the workflow service is unavailable. A client's mistake is never a 500.

**Tickers** are case-insensitive (normalised to upper case): 1 to 20 of \`A-Z 0-9 . -\`, starting with a letter or digit. \`market\` in responses is the market key (the \`{market}\` path value, also called the market slug; the human-readable slug is in GET /api/markets).

**Cache.** Fresh snapshots (age ≤ CACHE_FRESH_DAYS, default 1) are served with \`from_cache: true\`. Older ones inside the stale-while-revalidate window (CACHE_STALE_WHILE_REVALIDATE_DAYS, default 7) are served with \`stale: true\` while one deduplicated re-screen runs; \`refresh\` (and header \`X-Refresh\`) says \`started\`, \`already_running\` or \`unavailable\`. Older or never-screened tickers are re-screened (\`from_cache: false\`); if that cannot run, existing data is still served as stale with \`refresh: "unavailable"\`, and a ticker with no data (or \`force_refresh=true\`) gets 503. \`cache_age_days\` is whole days from the snapshot date to today (UTC).

**Report.** Each framework object is the engine's FrameworkResult (status, score, methodology version, structured \`reasons\` of shape Reason, purification; \`service_consensus\` adds \`components\` and \`coverage\`). \`financial_data\` = market_cap (spot, listing currency), market_cap_avg_24m/36m, currency, ratios, purification_per_share, purification, filing, data_quality, provenance. \`madhhab_views\` only when a shariah_* framework is returned.

**as_of.** \`frameworks\` maps each id to \`{status, key_ratios}\`: the snapshot's market-cap ratios (24-month average basis) for AAOIFI, DJIM and S&P, asset ratios for FTSE and MSCI, none for the exclusion screens and the consensus. Legacy-era snapshots carry \`data_quality.warning\` and \`engine_current_since\`.

**Batch** errors: \`{index, market, ticker, status, detail}\`; one bad item never fails the others. **ETF**: verdicts are the holdings' current snapshots (no re-screens); \`framework_stats\` counts pass (compliant), fail (non_compliant), questionable and unknown (insufficient_data or never screened), each with its share of the fund's weight (0..1 of the whole fund). **Compare**: \`frameworks: {id: {TICKER: status, agree}}\`, \`ratios: {ratio: {TICKER: value}}\`, \`differences\`: the frameworks where they disagree.

**Access control** plugs in per route: each operation's \`x-endpoint-tag\` and \`x-unit-cost\` are its tag and quota cost.`;
