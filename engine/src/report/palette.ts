// The series colours of every chart, in the panel and in every export (PNG, SVG, the HTML report):
// kernel first, then each profile in plan order. Fixed and solid, never the theme's chart colours:
// VS Code's `--vscode-charts-orange` carries alpha in Dark Modern (rgba(234,92,0,0.33), about 1.6:1
// against the editor) and prints pale peach on the exported white page. These are Okabe & Ito's
// colour-blind-safe hues (Paul Tol's blue for the kernel), darkened or lightened where needed so
// each is at least 3:1 (WCAG 1.4.11, graphical objects) against both a white page and VS Code's
// dark editor backgrounds; test/engine/report/palette.test.ts computes the ratios. Pure.

/** Kernel blue, vermillion, bluish green, reddish purple, ochre, grey. */
export const seriesPalette: readonly string[] = ['#0077BB', '#D55E00', '#009E73', '#CC79A7', '#997700', '#7F7F7F'];

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
export function relativeLuminance(hex: string): number {
  const match = /^#([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = [0, 2, 4]
    .map((at) => parseInt(match[1].slice(at, at + 2), 16) / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** A stack's colour: kernel first, then the profiles in the order the run met them. */
export function seriesColour(stacks: readonly string[], stack: string): string {
  return seriesPalette[Math.max(0, stacks.indexOf(stack)) % seriesPalette.length];
}
