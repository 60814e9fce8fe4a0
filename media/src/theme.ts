// Chart text, grid and background come from the VS Code theme's CSS variables and are re-read when
// the theme changes (VS Code rewrites the variables on <html> and the theme class on <body>). The
// series colours are the host's fixed palette (engine/src/report/palette.ts, sent with the model):
// solid and at least 3:1 on light and dark themes, the same in every export. The theme's chart
// colours are only the fallback before a model arrives.

export interface ThemeColours {
  /** Series colours in order: kernel first, then each profile. */
  series: string[];
  foreground: string;
  grid: string;
  background: string;
  fontFamily: string;
}

const seriesVariables = [
  '--vscode-charts-blue',
  '--vscode-charts-orange',
  '--vscode-charts-green',
  '--vscode-charts-purple',
  '--vscode-charts-red',
  '--vscode-charts-yellow',
];
const seriesFallbacks = ['#3794ff', '#d18616', '#89d185', '#b180d7', '#f14c4c', '#cca700'];

function cssVariable(style: CSSStyleDeclaration, name: string, fallback: string): string {
  const value = style.getPropertyValue(name).trim();
  return value.length > 0 ? value : fallback;
}

let fixedSeries: readonly string[] | undefined;

/** The host's palette, used for every series from now on (readTheme). */
export function useSeriesPalette(palette: readonly string[] | undefined): void {
  if (palette && palette.length > 0) fixedSeries = [...palette];
}

export function readTheme(): ThemeColours {
  const style = getComputedStyle(document.documentElement);
  return {
    series: fixedSeries
      ? [...fixedSeries]
      : seriesVariables.map((name, index) => cssVariable(style, name, seriesFallbacks[index])),
    foreground: cssVariable(style, '--vscode-editor-foreground', cssVariable(style, '--vscode-foreground', '#cccccc')),
    grid: cssVariable(
      style,
      '--vscode-editorWidget-border',
      cssVariable(style, '--vscode-panel-border', 'rgba(128,128,128,0.35)'),
    ),
    background: cssVariable(style, '--vscode-editor-background', '#1e1e1e'),
    fontFamily: cssVariable(style, '--vscode-font-family', 'sans-serif'),
  };
}

/** Calls back when VS Code changes the theme. */
export function onThemeChange(callback: () => void): void {
  const observer = new MutationObserver(() => callback());
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
}

/** A colour with alpha, for the min/max band under a series (works for #rgb, #rrggbb and rgb()). */
export function withAlpha(colour: string, alpha: number): string {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour.trim());
  if (hex) {
    const digits = hex[1].length === 3 ? [...hex[1]].map((d) => d + d).join('') : hex[1];
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16));
    return `rgba(${r}, ${g}, ${b}, ${alpha})`;
  }
  const rgb = /^rgba?\(([^,]+),([^,]+),([^,)]+)/i.exec(colour.trim());
  if (rgb) return `rgba(${rgb[1].trim()}, ${rgb[2].trim()}, ${rgb[3].trim()}, ${alpha})`;
  return colour;
}
