// The fixed series palette (engine/src/report/palette.ts) against the editor backgrounds of VS
// Code's built-in light and dark themes, and what the theme's own chart colour gave (issue 25: the
// Onload series hidden on Dark Modern). The ratios are computed, WCAG 2's formula; 3:1 is what WCAG
// 1.4.11 asks of graphical objects such as a chart's lines and marks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildHtmlReport } from '../../../engine/src/report/htmlReport';
import { contrastRatio, relativeLuminance, seriesPalette } from '../../../engine/src/report/palette';
import { fixtureManifest, fixtureResults } from '../../panel/fixtureRun';

/** `editor.background` of VS Code's built-in themes (extensions/theme-defaults, high contrast in the workbench). */
const backgrounds: Record<string, string> = {
  'Light Modern': '#ffffff',
  'Light+': '#ffffff',
  'Dark Modern': '#1f1f1f',
  'Dark+': '#1e1e1e',
  'Dark High Contrast': '#000000',
  'Light High Contrast': '#ffffff',
  'the exported page': '#ffffff',
};

/** An `rgba()` colour laid over an opaque background, as the screen shows it. */
function over(rgba: [number, number, number, number], background: string): string {
  const [r, g, b, a] = rgba;
  const base = [1, 3, 5].map((at) => parseInt(background.slice(at, at + 2), 16));
  return `#${[r, g, b]
    .map((channel, index) =>
      Math.round(channel * a + base[index] * (1 - a))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

test('every palette colour is solid and at least 3:1 against every built-in theme background', () => {
  assert.ok(seriesPalette.length >= 6);
  for (const colour of seriesPalette) {
    assert.match(colour, /^#[0-9A-Fa-f]{6}$/, 'solid: no alpha');
    for (const [name, background] of Object.entries(backgrounds)) {
      const ratio = contrastRatio(colour, background);
      assert.ok(ratio >= 3, `${colour} on ${name} (${background}): ${ratio.toFixed(2)}:1`);
    }
  }
  assert.equal(
    new Set(seriesPalette.map((colour) => colour.toLowerCase())).size,
    seriesPalette.length,
    'distinct colours',
  );
});

test('the contrast formula: white on black is 21:1, and the theme orange of Dark Modern was below 3:1', () => {
  assert.equal(contrastRatio('#ffffff', '#000000'), 21);
  assert.equal(relativeLuminance('#000000'), 0);
  // Dark Modern's --vscode-charts-orange is rgba(234, 92, 0, 0.33): what the Onload series used to be drawn in.
  const shown = over([234, 92, 0, 0.33], backgrounds['Dark Modern']);
  assert.ok(
    contrastRatio(shown, backgrounds['Dark Modern']) < 3,
    `${shown}: ${contrastRatio(shown, backgrounds['Dark Modern']).toFixed(2)}:1`,
  );
  assert.ok(contrastRatio(seriesPalette[1], backgrounds['Dark Modern']) >= 3);
});

test('the HTML report draws with the same palette as the panel', () => {
  const html = buildHtmlReport({ runDir: '/runs/run-fixture', results: fixtureResults(), manifest: fixtureManifest() });
  const throughput = /<figure data-metric="throughput">[^]*?<\/figure>/.exec(html)?.[0] ?? '';
  assert.match(throughput, new RegExp(`<g class="series" data-series="kernel"[^>]*>[^]*?stroke="${seriesPalette[0]}"`));
  assert.match(
    throughput,
    new RegExp(`<g class="series" data-series="Onload · latency-best"[^>]*>[^]*?stroke="${seriesPalette[1]}"`),
  );
  assert.doesNotMatch(html, /#1f77b4|#ff7f0e/i, 'no Tableau colours left');
});
