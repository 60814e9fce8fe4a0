// Chart images for the host to save. PNG is the chart's own pixels on the theme's background (the
// canvas itself is transparent); SVG is a vector redraw (see chartSvg in charts.ts).

export function chartPng(canvas: HTMLCanvasElement, background: string): string {
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const context = copy.getContext('2d');
  if (!context) return canvas.toDataURL('image/png');
  context.fillStyle = background;
  context.fillRect(0, 0, copy.width, copy.height);
  context.drawImage(canvas, 0, 0);
  return copy.toDataURL('image/png');
}

/** A file name the host accepts: letters, digits, dot, underscore and dash. */
export function imageFileName(...parts: string[]): string {
  const name = parts.join('-').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[^A-Za-z0-9]+/, '');
  return (name || 'chart').slice(0, 100);
}
