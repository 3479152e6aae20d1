import escapeHtml from 'escape-html';

const h = (value: unknown) => escapeHtml(String(value));

const BAR = 8;
const GAP = 2;
const HEIGHT = 48;

/**
 * A key's units per day as an inline SVG bar chart (no script, no external asset), with a
 * text summary for screen readers and the figures themselves in a table under a disclosure.
 */
export function renderUsageChart(id: string, days: ReadonlyArray<{ day: string; units: number }>): string {
  const peak = days.reduce((max, d) => Math.max(max, d.units), 0);
  const total = days.reduce((sum, d) => sum + d.units, 0);
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  const busiest = days.find((d) => d.units === peak && peak > 0);
  const summary =
    `Units used per day, ${first} to ${last} (UTC): ${total.toLocaleString('en-US')} in total` +
    (busiest ? `, most on ${busiest.day} (${busiest.units.toLocaleString('en-US')})` : ', none used');
  const width = days.length * (BAR + GAP) - GAP;
  const bars = days
    .map((d, i) => {
      // A used day never vanishes: at least 1 px, so a small day next to a big one still shows.
      const height = d.units === 0 ? 0 : Math.max(1, Math.round((d.units / peak) * HEIGHT));
      return (
        `<rect x="${i * (BAR + GAP)}" y="${HEIGHT - height}" width="${BAR}" height="${height}" ` +
        `data-day="${h(d.day)}" data-units="${d.units}"><title>${h(d.day)}: ${d.units} units</title></rect>`
      );
    })
    .join('');
  const rows = days.map((d) => `<tr><td>${h(d.day)}</td><td class="num">${d.units.toLocaleString('en-US')}</td></tr>`).join('');
  return (
    `<figure class="usage-chart" id="${h(id)}" data-total="${total}">
<svg role="img" aria-labelledby="${h(id)}-title" viewBox="0 -1 ${width} ${HEIGHT + 2}" width="${width}" height="${HEIGHT + 2}" preserveAspectRatio="none">
<title id="${h(id)}-title">${h(summary)}</title>
<line x1="0" y1="${HEIGHT}" x2="${width}" y2="${HEIGHT}" class="axis"/>${bars}</svg>
<figcaption>${h(summary)}.</figcaption>
<details><summary>Daily figures</summary><table class="days"><thead><tr><th scope="col">Day ` +
    `(UTC)</th><th scope="col">Units</th></tr></thead><tbody>${rows}</tbody></table></details>
</figure>`
  );
}
