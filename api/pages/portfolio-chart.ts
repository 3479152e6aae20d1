import { h } from './account-layout.ts';

/** One framework's split of the portfolio's value, each share 0..1. */
export interface PortfolioBar {
  framework: string;
  label: string;
  compliant: number;
  non_compliant: number;
  questionable: number;
  unknown: number;
}

const BUCKETS = [
  { key: 'compliant', name: 'compliant', fill: '#1d6b35' },
  { key: 'non_compliant', name: 'not compliant', fill: '#a11d1d' },
  { key: 'questionable', name: 'questionable', fill: '#b35c00' },
  { key: 'unknown', name: 'unknown', fill: '#8c8778' },
] as const;

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function sentence(bar: PortfolioBar): string {
  return BUCKETS.map((b) => `${percent(bar[b.key])} ${b.name}`).join(', ');
}

/** One stacked bar: a segment per status, as wide as its share of the portfolio's value. */
function barSvg(bar: PortfolioBar): string {
  let x = 0;
  const segments = BUCKETS.map((b) => {
    const width = bar[b.key] * 100;
    const rect =
      `<rect x="${x.toFixed(3)}" y="0" width="${width.toFixed(3)}" height="10" fill="${b.fill}" data-status="${b.key}" ` +
      `data-share="${bar[b.key]}"><title>${h(b.name)}: ${percent(bar[b.key])}</title></rect>`;
    x += width;
    return rect;
  }).join('');
  return (
    `<svg role="img" aria-label="${h(`${bar.label}: ${sentence(bar)}`)}" viewBox="0 0 100 10" width="100%" height="18" ` +
    `preserveAspectRatio="none">${segments}</svg>`
  );
}

/**
 * The portfolio's split by status under each framework as inline SVG bars (no script, no
 * external asset; colours are SVG attributes, so the page's stylesheet hash is untouched), with
 * each split in words for screen readers and in a table of figures.
 */
export function renderPortfolioChart(id: string, bars: readonly PortfolioBar[]): string {
  const legend = BUCKETS.map(
    (b) =>
      `<span class="legend"><svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="${b.fill}"/></svg> ${h(b.name)}</span>`,
  ).join(' ');
  const rows = bars.map((bar) => `<tr data-framework="${h(bar.framework)}"><td>${h(bar.label)}<br>${barSvg(bar)}</td></tr>`).join('\n');
  const figures = bars
    .map((bar) => `<tr><td>${h(bar.framework)}</td>${BUCKETS.map((b) => `<td class="num">${percent(bar[b.key])}</td>`).join('')}</tr>`)
    .join('');
  return (
    `<figure class="portfolio-chart" id="${h(id)}">
<p>${legend}</p>
<table class="bars">${rows}</table>
<figcaption>Share of the portfolio's value by status under each framework; unknown is insufficient data, no current verdict, ` +
    `or the part of a fund its report does not cover.</figcaption>
<details><summary>Figures</summary><table><thead><tr><th scope="col">Framework</th>${BUCKETS.map(
      (b) => `<th scope="col" class="num">${h(b.name)}</th>`,
    ).join('')}</tr></thead><tbody>${figures}</tbody></table></details>
</figure>`
  );
}
