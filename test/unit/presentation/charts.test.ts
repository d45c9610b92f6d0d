/**
 * The token charts (behaviour DASH-9): SVG with a title and description as an image, issued and
 * refused told apart without colour (refused bars hatched and outlined, the legend in words), the
 * numbers as a table whose totals are the data's, escaped text, no `style=` attribute, and the
 * empty state instead of an empty chart.
 */
import { axisStep, type ChartBar, dayBars, hourBars, shortDay, tokenChart } from '../../../lambdas/presentation/dashboard/charts';

const bars: ChartBar[] = dayBars([
  { start: '2026-11-20', issued: 12, refused: 0 },
  { start: '2026-11-21', issued: 0, refused: 0 },
  { start: '2026-11-22', issued: 30, refused: 7 },
  { start: '2026-11-23', issued: 1, refused: 1 },
]);
const chart = (overrides: Partial<Parameters<typeof tokenChart>[0]> = {}) =>
  tokenChart({
    id: 'c7',
    title: 'Token requests by day',
    period: 'Day (UTC)',
    empty: 'No token requests in the last 7 days.',
    bars,
    ...overrides,
  }).value;

const all = (text: string, pattern: RegExp) => [...text.matchAll(pattern)];

describe('token chart (behaviour DASH-9)', () => {
  it('is an image named by its title and description', () => {
    const svg = chart();
    expect(svg).toMatch(/<svg id="c7" role="img" aria-labelledby="c7-title c7-desc"/);
    expect(svg).toContain('<title id="c7-title">Token requests by day</title>');
    expect(svg).toMatch(
      /<desc id="c7-desc">[^<]*issued solid, refused hatched\. In all 43 issued and 8 refused; the busiest was 2026-11-22 with 37\.<\/desc>/,
    );
  });

  it('draws one bar per non-zero count: issued solid, refused hatched and outlined, never colour alone', () => {
    const svg = chart();
    const issued = all(svg, /<rect class="issued"[^>]*>/g);
    const refused = all(svg, /<rect class="refused"[^>]*>/g);
    expect(issued).toHaveLength(3);
    expect(refused).toHaveLength(2);
    for (const [rect] of issued) expect(rect).toMatch(/fill="#[0-9a-f]{6}"/);
    for (const [rect] of refused) expect(rect).toMatch(/fill="url\(#c7-hatch\)" stroke="#a40000"/);
    expect(svg).toMatch(/<pattern id="c7-hatch"[^>]*patternTransform="rotate\(45\)"/);
    expect(svg).toContain('>Issued (solid)</text>');
    expect(svg).toContain('>Refused (hatched)</text>');
    expect(svg).toContain('<title>2026-11-22: 7 refused</title>');
  });

  it('scales the tallest bar to the top of a round axis, labelled from 0', () => {
    const svg = chart();
    const heights = all(svg, /<rect class="(?:issued|refused)"[^>]* y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/g).map((m) =>
      Number(m[2]),
    );
    // Axis 0..30 in steps of 10 over a plot 164 high: the 30 bar is the full height.
    expect(Math.max(...heights)).toBe(164);
    expect(all(svg, /<text x="\d+" y="[\d.]+" text-anchor="end">(\d+)<\/text>/g).map((m) => m[1])).toEqual(['0', '10', '20', '30']);
    expect(all(svg, /text-anchor="middle">([^<]+)</g).map((m) => m[1])).toEqual(['20 Nov', '21 Nov', '22 Nov', '23 Nov']);
  });

  it('has its numbers as a table under it, whose rows and totals equal the data', () => {
    const svg = chart();
    const rows = all(svg, /<tr><td>([^<]+)<\/td><td>(\d+)<\/td><td>(\d+)<\/td><\/tr>/g).map((m) => [m[1], Number(m[2]), Number(m[3])]);
    expect(rows).toEqual(bars.map((bar) => [bar.label, bar.issued, bar.refused]));
    expect(svg).toContain('<tfoot><tr><th>Total</th><th>43</th><th>8</th></tr></tfoot>');
    expect(svg).toMatch(
      /<details><summary>Token requests by day: the numbers<\/summary>\s*<table class="chart-data"><thead><tr><th>Day \(UTC\)<\/th>/,
    );
  });

  it('escapes its text and carries no style attribute (the pages CSP and DASH-2)', () => {
    const svg = chart({ title: '<script>alert(1)</script>', id: 'x"y' });
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(svg).toContain('id="x&quot;y"');
    expect(svg).not.toMatch(/\sstyle=/);
  });

  it('says there was nothing instead of drawing an empty chart', () => {
    const empty = chart({ bars: bars.map((bar) => ({ ...bar, issued: 0, refused: 0 })) });
    expect(empty).toBe('<p class="empty-chart" id="c7">No token requests in the last 7 days.</p>');
  });
});

describe('chart helpers', () => {
  it('axis steps are 1, 2 or 5 times a power of ten, at most 4 above 0', () => {
    expect([1, 4, 5, 9, 37, 100, 1234].map(axisStep)).toEqual([1, 1, 2, 5, 10, 50, 500]);
  });

  it('hour bars label every third hour on the axis, ending with the current one', () => {
    const hours = Array.from({ length: 24 }, (_, i) => ({ start: `2026-11-26T${String(i).padStart(2, '0')}`, issued: i, refused: 0 }));
    const labelled = hourBars(hours).filter((bar) => bar.axisLabel);
    expect(labelled.map((bar) => bar.axisLabel)).toEqual(['02:00', '05:00', '08:00', '11:00', '14:00', '17:00', '20:00', '23:00']);
    expect(hourBars(hours)[23]!.label).toBe('26 Nov 23:00');
    expect(shortDay('2026-01-05')).toBe('5 Jan');
  });
});
