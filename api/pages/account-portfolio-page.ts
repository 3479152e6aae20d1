import { FRAMEWORKS } from '../../engine/index.ts';
import { MARKET_KEYS } from '../../common/markets.ts';
import { CSV_COLUMNS } from '../use-cases/portfolio-csv.ts';
import { csrfField, h, messageBox, type AccountPage, type PageUser } from './account-layout.ts';
import { renderPortfolioChart, type PortfolioBar } from './portfolio-chart.ts';

/** What /account/portfolio shows: the form, and after a post either the answer or what was wrong. */
export interface PortfolioPageModel {
  user: PageUser;
  csv: string;
  market: string;
  /** `POST /api/portfolio`'s answer. */
  result?: Record<string, unknown>;
  error?: string;
}

/** Fills the text area from a chosen file (the page works without it: paste instead). */
const SCRIPT =
  "const f=document.getElementById('csv-file');document.getElementById('file-row').hidden=false;" +
  "f.addEventListener('change',()=>{const file=f.files[0];if(file)file.text().then((t)=>{document.getElementById('csv').value=t;});});";

const label = (id: string) => FRAMEWORKS.find((f) => f.id === id)?.label ?? id;
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function form(model: PortfolioPageModel): string {
  const names = (list: readonly string[]) => list.map((n) => `<code>${h(n)}</code>`).join(', ');
  const markets = MARKET_KEYS.map((m) => `<option value="${h(m)}"${m === model.market ? ' selected' : ''}>${h(m)}</option>`).join('');
  return `<form method="post" action="/account/portfolio" id="portfolio-form" class="stacked">${csrfField(model.user.csrfToken)}
<div><label for="csv">Holdings, as CSV<span class="hint">A header row, then one position a row. Ticker column: ${names(
    CSV_COLUMNS.ticker,
  )}; size by one of value (${names(CSV_COLUMNS.value)}), shares (${names(CSV_COLUMNS.shares)}) or weight (${names(
    CSV_COLUMNS.weight,
  )}); any case. A broker's export works as it is.</span></label>
<textarea id="csv" name="csv" rows="10" cols="36" required>${h(model.csv)}</textarea></div>
<div id="file-row" hidden><label for="csv-file">Or choose a CSV file</label><input type="file" id="csv-file" accept=".csv,text/csv"></div>
<div><label for="market">Market of tickers without a Market column</label><select id="market" name="market">${markets}</select></div>
<button type="submit">Screen portfolio</button>
</form>`;
}

interface Exposure {
  ticker: string | null;
  via: string | null;
  weight: number;
  why: string[];
}

function failingList(framework: string, summary: { failing: Exposure[]; failing_count: number }): string {
  if (summary.failing_count === 0) return '';
  const items = summary.failing
    .map(
      (e) =>
        `<li><code>${h(e.ticker ?? '—')}</code>${e.via ? ` (through ${h(e.via)})` : ''}, ${percent(e.weight)}: ${h(e.why.join(' '))}</li>`,
    )
    .join('');
  return (
    `<details class="failing" data-framework="${h(framework)}"><summary>${h(label(framework))}: ${summary.failing_count} ` +
    `not compliant</summary><ul>${items}</ul></details>`
  );
}

function resultSection(result: Record<string, unknown>): string {
  const frameworks = result.frameworks as Record<string, PortfolioBar & { failing: Exposure[]; failing_count: number }>;
  const ids = result.frameworks_returned as string[];
  const bars = ids.map((id) => ({ ...frameworks[id]!, framework: id, label: label(id) }));
  const holdings = result.holdings as Array<{
    ticker: string;
    name: string | null;
    kind: string;
    weight: number;
    counted_as: Record<string, string>;
  }>;
  const rows = holdings
    .map((holding) => {
      const failing = ids.filter((id) => holding.counted_as[id] === 'non_compliant');
      const notes = holding.kind === 'fund' ? 'fund, looked through' : failing.length === 0 ? '—' : failing.map((id) => h(id)).join(', ');
      const weight = `<td class="num">${percent(holding.weight)}</td>`;
      return `<tr data-ticker="${h(holding.ticker)}"><td><code>${h(holding.ticker)}</code></td>${weight}<td>${notes}</td></tr>`;
    })
    .join('');
  const coverage = result.coverage as { funds: number; fund_weight: number; fund_weight_covered: number };
  const funds =
    coverage.funds === 0
      ? ''
      : `<p id="coverage">${coverage.funds} fund(s), ${percent(coverage.fund_weight)} of the portfolio; their reports cover ${percent(
          coverage.fund_weight_covered,
        )}.</p>`;
  return (
    `<section id="result" aria-labelledby="result-title"><h2 id="result-title">Result, ${h(String(result.as_of))}</h2>
${funds}${renderPortfolioChart('portfolio-chart', bars)}
${bars.map((bar) => failingList(bar.framework, frameworks[bar.framework]!)).join('\n')}
<h2>Holdings</h2><table id="holdings"><thead><tr><th scope="col">Ticker</th><th scope="col" class="num">Weight</th>` +
    `<th scope="col">Not compliant under</th></tr></thead><tbody>${rows}</tbody></table></section>`
  );
}

/** /account/portfolio: paste or choose a broker CSV; after a post, the screen of it with a chart. */
export function portfolioPage(model: PortfolioPageModel): AccountPage {
  const error = model.error === undefined ? '' : messageBox('error', model.error);
  const main =
    `<h1>Portfolio screen</h1>
<p class="lead">Screens every holding from its current verdicts, looks funds through to their latest holdings report, and ` +
    `shows the share of your portfolio's value that is compliant under each framework. The same screen is ` +
    `<code>POST /api/portfolio</code> with an API key.</p>
${error}${form(model)}
${model.result ? resultSection(model.result) : ''}`;
  return { title: 'Portfolio screen', main, user: model.user, script: SCRIPT };
}
