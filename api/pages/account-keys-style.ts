/**
 * The rules the key and upgrade pages add to the account pages' one stylesheet
 * (api/pages/account-layout.ts includes them, so the Content-Security-Policy hash covers them).
 */
export const ACCOUNT_KEYS_STYLE =
  `
.lead { color: #444; }
.notice { border-left: 4px solid #8a6100; padding: .6rem .9rem; background: #fdf6e3; margin: 0 0 1.25rem; }
.notice.good { border-left-color: #1d6b35; background: #eef7f0; }
.notice.bad { border-left-color: #a11d1d; background: #fbeeee; }
.key { border: 1px solid #d9d4c7; border-radius: 6px; padding: 1rem 1.25rem; margin: 0 0 1.25rem; }
.key.revoked { background: #f7f6f2; }
.key h2 { margin-top: 0; }
.key h2 code { font-size: 1.05rem; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.button { font-size: 1rem; padding: .55rem 1.1rem; border-radius: 4px; border: 1px solid #1d4f91; ` +
  `background: #1d4f91; color: #fff; text-decoration: none; display: inline-block; }
.button.secondary, button.secondary { background: #fff; color: #1d4f91; }
button.danger { background: #a11d1d; border-color: #a11d1d; }
.secret { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .5rem 0; }
.secret input { flex: 1 1 20rem; min-width: 0; font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: .9rem; }
meter { width: 10rem; max-width: 100%; height: 1rem; vertical-align: middle; }
.usage-chart { margin: .5rem 0 0; }
.usage-chart svg { display: block; max-width: 100%; height: 3.2rem; }
.usage-chart rect { fill: #1d4f91; }
.usage-chart .axis { stroke: #8c8778; stroke-width: 1; }
.usage-chart figcaption { font-size: .85rem; color: #444; margin: .3rem 0; }
.usage-chart table.days { width: auto; font-size: .85rem; }
@media (max-width: 40rem) {
  .key table th, .key table td { display: block; padding: .2rem 0; }
  .key table tr + tr th, .key table tr + tr td { border-top: none; }
  .key table tr + tr th { border-top: 1px solid #ece8de; padding-top: .5rem; }
}`;
