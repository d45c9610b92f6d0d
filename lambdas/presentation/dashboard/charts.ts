/**
 * Token requests as a bar chart (behaviour DASH-9): server-rendered SVG, no script, inline in the
 * page (the pages' CSP has `default-src 'none'`: an inline `<svg>` fetches nothing). Issued and
 * refused side by side, told apart without colour: issued bars are solid, refused bars hatched and
 * outlined, and the legend says so in words. Each chart is an image with a title and a description
 * (`role="img"`, WCAG 1.1.1) and has its numbers as a table under it (a `<details>`), whose totals
 * are the chart's. No `style=` attribute: SVG presentation attributes only.
 */
import { type Html, html } from '../html';

export interface ChartBar {
  /** Under the axis (may be blank, to thin out 24 hour labels). */
  readonly axisLabel: string;
  /** In the table and the bar's tooltip: the hour or day in full. */
  readonly label: string;
  readonly issued: number;
  readonly refused: number;
}

export interface TokenChart {
  /** Prefixes the chart's element ids: unique on its page. */
  readonly id: string;
  readonly title: string;
  /** The table's first column: "Hour (UTC)", "Day (UTC)". */
  readonly period: string;
  /** Shown instead of the chart when every bar is 0: "No token requests in the last 24 hours." */
  readonly empty: string;
  readonly bars: readonly ChartBar[];
}

const width = 640;
const height = 230;
const plot = { left: 44, right: 8, top: 30, bottom: 36 };
const plotWidth = width - plot.left - plot.right;
const plotHeight = height - plot.top - plot.bottom;
const issuedFill = '#1f2937';
const refusedStroke = '#a40000';

/** A step of 1, 2 or 5 × 10^n giving at most 4 gridlines above 0. */
export function axisStep(max: number): number {
  const rough = Math.max(1, max / 4);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= rough)!;
  return Math.max(1, step);
}

const round = (n: number) => Math.round(n * 10) / 10;

export function tokenChart(chart: TokenChart): Html {
  const issued = chart.bars.reduce((sum, bar) => sum + bar.issued, 0);
  const refused = chart.bars.reduce((sum, bar) => sum + bar.refused, 0);
  if (issued + refused === 0) return html`<p class="empty-chart" id="${chart.id}">${chart.empty}</p>`;
  const peak = Math.max(...chart.bars.map((bar) => Math.max(bar.issued, bar.refused)));
  const step = axisStep(peak);
  const top = step * Math.ceil(peak / step);
  const y = (value: number) => round(plot.top + plotHeight - (value / top) * plotHeight);
  const slot = plotWidth / chart.bars.length;
  const barWidth = round(Math.min(24, slot * 0.38));
  const ticks = Array.from({ length: top / step + 1 }, (_, i) => i * step);
  const busiest = chart.bars.reduce((best, bar) => (bar.issued + bar.refused > best.issued + best.refused ? bar : best));
  const description = `Bars per ${chart.period.split(' ')[0]!.toLowerCase()}: issued solid, refused hatched. In all ${issued} issued and ${refused} refused; the busiest was ${busiest.label} with ${busiest.issued + busiest.refused}.`;
  const bar = (x: number, value: number, kind: 'issued' | 'refused', of: ChartBar) =>
    value === 0
      ? ''
      : html`<rect class="${kind}" x="${round(x)}" y="${y(value)}" width="${barWidth}" height="${round(plot.top + plotHeight - y(value))}" fill="${kind === 'issued' ? issuedFill : `url(#${chart.id}-hatch)`}"${kind === 'refused' ? html` stroke="${refusedStroke}" stroke-width="1"` : ''}><title>${of.label}: ${value} ${kind}</title></rect>`;
  return html`<figure class="chart">
<svg id="${chart.id}" role="img" aria-labelledby="${chart.id}-title ${chart.id}-desc" viewBox="0 0 ${width} ${height}" width="100%" font-family="system-ui, sans-serif" font-size="11" fill="#1a1a1a">
<title id="${chart.id}-title">${chart.title}</title><desc id="${chart.id}-desc">${description}</desc>
<defs><pattern id="${chart.id}-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#fff"/><rect width="3" height="6" fill="${refusedStroke}"/></pattern></defs>
<g class="legend"><rect x="${plot.left}" y="6" width="14" height="14" fill="${issuedFill}"/><text x="${plot.left + 20}" y="17">Issued (solid)</text>
<rect x="${plot.left + 120}" y="6" width="14" height="14" fill="url(#${chart.id}-hatch)" stroke="${refusedStroke}"/><text x="${plot.left + 140}" y="17">Refused (hatched)</text></g>
<g class="axis">${ticks.map(
    (tick) =>
      html`<line x1="${plot.left}" x2="${width - plot.right}" y1="${y(tick)}" y2="${y(tick)}" stroke="${tick === 0 ? '#1a1a1a' : '#ccc'}"${tick === 0 ? '' : html` stroke-dasharray="3 3"`}/><text x="${plot.left - 6}" y="${y(tick) + 4}" text-anchor="end">${tick}</text>`,
  )}</g>
<g class="bars">${chart.bars.map((of, i) => {
    const x = plot.left + i * slot + slot / 2;
    return html`<g>${bar(x - barWidth - 1, of.issued, 'issued', of)}${bar(x + 1, of.refused, 'refused', of)}${
      of.axisLabel ? html`<text x="${round(x)}" y="${height - plot.bottom + 16}" text-anchor="middle">${of.axisLabel}</text>` : ''
    }</g>`;
  })}</g>
</svg>
<details><summary>${chart.title}: the numbers</summary>
<table class="chart-data"><thead><tr><th>${chart.period}</th><th>Issued</th><th>Refused</th></tr></thead>
<tbody>${chart.bars.map((of) => html`<tr><td>${of.label}</td><td>${of.issued}</td><td>${of.refused}</td></tr>`)}</tbody>
<tfoot><tr><th>Total</th><th>${issued}</th><th>${refused}</th></tr></tfoot></table></details>
</figure>`;
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2026-11-26` → `26 Nov`. */
export const shortDay = (day: string) => `${Number(day.slice(8, 10))} ${months[Number(day.slice(5, 7)) - 1]}`;

/** The bars of 24 hourly buckets, every third hour labelled on the axis. */
export function hourBars(buckets: readonly { start: string; issued: number; refused: number }[]): ChartBar[] {
  return buckets.map(({ start, issued, refused }, i) => ({
    axisLabel: (buckets.length - 1 - i) % 3 === 0 ? `${start.slice(11, 13)}:00` : '',
    label: `${shortDay(start.slice(0, 10))} ${start.slice(11, 13)}:00`,
    issued,
    refused,
  }));
}

/** The bars of daily buckets, each labelled. */
export function dayBars(buckets: readonly { start: string; issued: number; refused: number }[]): ChartBar[] {
  return buckets.map(({ start, issued, refused }) => ({ axisLabel: shortDay(start), label: start, issued, refused }));
}
