// How the webview names a stack: as the host labelled it (engine/src/report/stackLabels.ts:
// `kernel`, `Onload · latency`, or the plan's display name), so a profile called `latency` never reads
// as a metric in a legend, a column or a tooltip. The stack's name stays its id in data attributes
// and messages; only the text a reader sees goes through here. Set once per model.
let labels: Readonly<Record<string, string>> = {};

export function useStackLabels(next: Readonly<Record<string, string>> | undefined): void {
  labels = next ?? {};
}

/** The stack as shown; the bare name when the host gave no label (models from older hosts). */
export function stackText(stack: string): string {
  return Object.hasOwn(labels, stack) ? labels[stack] : stack;
}
