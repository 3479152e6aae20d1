import { Presets, SingleBar } from 'cli-progress';
import type { CompanyResult, FetchEdgarProgress, FetchEdgarSummary } from '../sources/edgar/edgar-fetch.ts';

/** Shows an EDGAR fetch: a live bar on a terminal, one plain line per company otherwise (logs, CI). */
export interface EdgarFetchView {
  update(progress: FetchEdgarProgress): void;
  stop(): void;
}

function companyLine(r: CompanyResult): string {
  const who = r.cik ? `${r.company} (CIK${r.cik})` : r.company;
  if (r.files.length === 0) return `${who}: failed: ${r.reason ?? 'unknown'}`;
  return `${who}: ${r.files.map((f) => `${f.file.split('/')[0]} ${f.outcome}${f.reason ? ` (${f.reason})` : ''}`).join(', ')}`;
}

export function createEdgarFetchView(stream: NodeJS.WriteStream = process.stderr, env: NodeJS.ProcessEnv = process.env): EdgarFetchView {
  if (!stream.isTTY || env.CI) {
    return {
      update: (p) => void stream.write(`[${p.doneCompanies}/${p.totalCompanies}] ${companyLine(p.last)}\n`),
      stop() {},
    };
  }
  const bar = new SingleBar(
    { stream, format: 'edgar |{bar}| {value}/{total} companies · failed {failed} · {company}', hideCursor: true },
    Presets.shades_classic,
  );
  let started = false;
  let failed = 0;
  return {
    update(p) {
      if (p.last.reason) failed += 1;
      const payload = { failed, company: p.last.company };
      if (!started) bar.start(p.totalCompanies, 0, payload);
      started = true;
      bar.update(p.doneCompanies, payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

/** The human summary: counts, then each failed company with its reason. */
export function summaryText(s: FetchEdgarSummary): string {
  const lines = [
    `EDGAR files in ${s.out}: ${s.companies} companies; files downloaded ${s.downloaded}, skipped (already complete) ${s.skipped}, failed ${s.failed}`,
  ];
  if (s.failures.length > 0) {
    lines.push(`${s.failures.length} ${s.failures.length === 1 ? 'company' : 'companies'} failed:`);
    for (const f of s.failures) lines.push(`  ${f.cik ? `${f.company} (CIK${f.cik})` : f.company}: ${f.reason}`);
  }
  return lines.join('\n');
}
