// PNG and SVG files of any chart the webview draws (the run's charts, the compare view's, the
// latency spectrum), so every figure a reader sees can go into a report. The
// chart's own Chart.js configuration is drawn once more off screen, framed for a report: its own
// background, a title naming metric, unit, interface and run, the legend inside, no tooltip; PNG at
// print resolution, SVG as vectors through svgcanvas's recording 2D context.
import { BasicPlatform, Chart, type ChartConfiguration, type ChartType, type Plugin } from 'chart.js';
import { Context as SvgContext } from 'svgcanvas';
import type { ThemeColours } from './theme.js';

/** What an exported image shows above the plot: the metric and unit, the interface, the run. */
export interface ExportSpec {
  title: string[];
  /** Colours of the image (a light background by default, see exportTheme in exportImage.ts). */
  theme: ThemeColours;
  /** Size in CSS pixels; the PNG multiplies it by its pixel ratio. */
  width: number;
  height: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyConfig = ChartConfiguration<ChartType, any, any>;
/** Colours the chart as the theme says (axes, ticks, text) once it exists; charts.ts' applyTheme. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ThemeChart = (chart: Chart<any, any, any>, theme: ThemeColours) => void;

/** The on-screen configuration made self-contained for a file: title and legend inside, its own background. */
export function framedForFile<C extends AnyConfig>(config: C, spec: ExportSpec, pixelRatio: number): C {
  const { theme } = spec;
  const background: Plugin = {
    id: 'exportBackground',
    beforeDraw: (target) => {
      target.ctx.save();
      target.ctx.fillStyle = theme.background;
      target.ctx.fillRect(0, 0, spec.width, spec.height);
      target.ctx.restore();
    },
  };
  const options = (config.options ?? {}) as NonNullable<AnyConfig['options']>;
  return {
    ...config,
    // the chart's own plugins (error bars) belong in the file too
    plugins: [background, ...(config.plugins ?? [])],
    options: {
      ...options,
      responsive: false,
      animation: false,
      devicePixelRatio: pixelRatio,
      layout: { padding: { top: 8, right: 28, bottom: 8, left: 12 } },
      plugins: {
        ...options.plugins,
        title: {
          display: true,
          text: spec.title,
          color: theme.foreground,
          font: { family: theme.fontFamily, size: 16, weight: 'bold' },
          padding: { top: 4, bottom: 8 },
        },
        legend: {
          ...options.plugins?.legend,
          display: true,
          position: 'top',
          labels: {
            ...options.plugins?.legend?.labels,
            color: theme.foreground,
            font: { family: theme.fontFamily, size: 13 },
          },
        },
        tooltip: { enabled: false },
      },
    },
  } as C;
}

/**
 * Draws a chart once for a file, off screen, and hands its context to `read`. Chart.js keeps the
 * text colour and font in globals; they are put back for the charts on screen.
 */
function drawForFile<T>(
  canvas: HTMLCanvasElement,
  config: AnyConfig,
  theme: ThemeColours,
  themeChart: ThemeChart,
  read: () => T,
): T {
  const saved = { color: Chart.defaults.color, family: Chart.defaults.font.family };
  let chart: Chart | undefined;
  try {
    chart = new Chart(canvas, config);
    themeChart(chart, theme);
    chart.update('none');
    return read();
  } finally {
    chart?.destroy();
    Chart.defaults.color = saved.color;
    Chart.defaults.font.family = saved.family;
  }
}

/** A configuration drawn as a PNG data URL at `pixelRatio` device pixels per CSS pixel (2 or more for print). */
export function pngOfChart(config: AnyConfig, spec: ExportSpec, pixelRatio: number, themeChart: ThemeChart): string {
  const canvas = document.createElement('canvas');
  canvas.width = spec.width;
  canvas.height = spec.height;
  const framed = framedForFile(config, spec, pixelRatio);
  framed.platform = BasicPlatform;
  return drawForFile(canvas, framed, spec.theme, themeChart, () => canvas.toDataURL('image/png'));
}

/** svgcanvas writes attributes it has no value for as the text `undefined` (and `NaN`); drop them. */
export function cleanSvg(svg: string): string {
  return svg.replace(/\s[\w:-]+="(?:undefined|NaN|null)"/g, '');
}

/**
 * A configuration drawn as vector SVG: Chart.js draws it once more into svgcanvas's recording 2D
 * context (off screen, through Chart.js's DOM-less platform).
 */
export function svgOfChart(config: AnyConfig, spec: ExportSpec, themeChart: ThemeChart): string {
  const { width, height } = spec;
  const context = new SvgContext({ width, height });
  // Chart.js asks a canvas for its context and size; svgcanvas is only the context.
  const canvas = { width, height, getContext: () => context };
  const framed = framedForFile(config, spec, 1);
  // Chart.js strokes lines through a cached Path2D, which svgcanvas cannot record; a `segment`
  // option makes it draw each line with plain moveTo/lineTo calls instead.
  framed.data = { ...framed.data, datasets: framed.data.datasets.map((dataset) => ({ ...dataset, segment: {} })) };
  framed.platform = BasicPlatform;
  // svgcanvas learns each text's font by writing a `style` attribute on a scratch <span>, which the
  // webview's CSP rightly blocks (the SVG would lose its fonts). For this synchronous draw only,
  // HTML style attributes go through CSSOM instead, which the CSP allows.
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (this: Element, name: string, value: string) {
    if (name === 'style' && this instanceof HTMLElement) this.style.cssText = value;
    else setAttribute.call(this, name, value);
  };
  try {
    return drawForFile(canvas as unknown as HTMLCanvasElement, framed, spec.theme, themeChart, () => {
      // A <title> names the chart for screen readers and file browsers; the drawn title is text in the image.
      const escaped = spec.title.join(', ').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      return cleanSvg(context.getSerializedSvg(true)).replace(
        /<svg\b[^>]*>/,
        (open) => `${open}<title>${escaped}</title>`,
      );
    });
  } finally {
    Element.prototype.setAttribute = setAttribute;
  }
}

/** Saves a chart's configuration as a file: panel.ts frames it with the export theme and posts it to the host. */
export type SaveChartImage = (format: 'png' | 'svg', name: string, config: AnyConfig, title: string[]) => void;

/** The PNG and SVG buttons of a figure's toolbar, named for the chart they save. */
export function imageButtons(chartName: string, save: (format: 'png' | 'svg') => void): HTMLButtonElement[] {
  return (['png', 'svg'] as const).map((format) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = `save-${format}`;
    button.setAttribute('aria-label', `Save ${chartName} as ${format.toUpperCase()}`);
    button.textContent = format.toUpperCase();
    button.addEventListener('click', () => save(format));
    return button;
  });
}
