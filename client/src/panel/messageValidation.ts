// Checks every message the results webview posts before the host acts on it. The webview runs
// untrusted-ish content (chart labels come from plan files), so the host never trusts a shape.
import type { PanelUiState, WebviewMessage } from './protocol';

/** Biggest image the webview may hand over (a data URL of a large chart is a few MB). */
export const maxImageBytes = 20 * 1024 * 1024;

/** Repetitions of one point the time-series view shows at once. */
export const maxTimeSeriesCells = 100;

const fileNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$/;
const pngPrefix = 'data:image/png;base64,';

export type Validated<T> = { ok: true; value: T } | { ok: false; error: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}

/** Validates a message from the webview: its type and every field that type carries. */
export function validateWebviewMessage(raw: unknown): Validated<WebviewMessage> {
  if (!isRecord(raw)) return fail('message is not an object');
  switch (raw.type) {
    case 'ready':
      return { ok: true, value: { type: 'ready' } };
    case 'export-csv': {
      const runIndex = raw.runIndex;
      if (typeof runIndex !== 'number' || !Number.isInteger(runIndex) || runIndex < 0 || runIndex > 1) {
        return fail('export-csv: runIndex must be 0 or 1');
      }
      return { ok: true, value: { type: 'export-csv', runIndex } };
    }
    case 'save-image': {
      const { format, name, data } = raw;
      if (format !== 'png' && format !== 'svg') return fail('save-image: format must be png or svg');
      if (typeof name !== 'string' || !fileNamePattern.test(name)) {
        return fail('save-image: name must be a plain file name (letters, digits, . _ -)');
      }
      if (typeof data !== 'string' || data.length === 0) return fail('save-image: data must be a non-empty string');
      if (data.length > maxImageBytes * 2) return fail('save-image: image too large');
      if (format === 'png') {
        if (!data.startsWith(pngPrefix)) return fail('save-image: png data must be a base64 PNG data URL');
        const base64 = data.slice(pngPrefix.length);
        if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return fail('save-image: png data is not base64');
      } else if (!/^(<\?xml[^>]*>\s*)?<svg[\s>]/.test(data)) {
        return fail('save-image: svg data must start with an <svg> element');
      }
      return { ok: true, value: { type: 'save-image', format, name, data } };
    }
    case 'export-report': {
      const runIndex = raw.runIndex;
      if (typeof runIndex !== 'number' || !Number.isInteger(runIndex) || runIndex < 0 || runIndex > 1) {
        return fail('export-report: runIndex must be 0 or 1');
      }
      return { ok: true, value: { type: 'export-report', runIndex } };
    }
    case 'open-timeseries': {
      const { runIndex, cellIds, stack, threads, title } = raw;
      if (typeof runIndex !== 'number' || !Number.isInteger(runIndex) || runIndex < 0 || runIndex > 1) {
        return fail('open-timeseries: runIndex must be 0 or 1');
      }
      if (
        !Array.isArray(cellIds) ||
        cellIds.length === 0 ||
        cellIds.length > maxTimeSeriesCells ||
        !cellIds.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 512)
      ) {
        return fail(`open-timeseries: cellIds must be 1 to ${maxTimeSeriesCells} cell ids`);
      }
      if (typeof stack !== 'string' || stack.length > 512) return fail('open-timeseries: stack must be a string');
      if (typeof threads !== 'number' || !Number.isInteger(threads) || threads < 0)
        return fail('open-timeseries: threads must be a whole number');
      if (typeof title !== 'string' || title.length > 1024)
        return fail('open-timeseries: title must be a short string');
      return {
        ok: true,
        value: { type: 'open-timeseries', runIndex, cellIds: [...cellIds] as string[], stack, threads, title },
      };
    }
    case 'open-cell': {
      const { runIndex, cellIds } = raw;
      if (typeof runIndex !== 'number' || !Number.isInteger(runIndex) || runIndex < 0 || runIndex > 1)
        return fail('open-cell: runIndex must be 0 or 1');
      if (!Array.isArray(cellIds) || cellIds.length === 0 || cellIds.length > 1000)
        return fail('open-cell: cellIds must be a non-empty list');
      if (!cellIds.every((id) => typeof id === 'string' && id.length > 0 && id.length < 500))
        return fail('open-cell: every cell id must be a short string');
      return { ok: true, value: { type: 'open-cell', runIndex, cellIds: cellIds as string[] } };
    }
    default:
      return fail(`unknown message type ${JSON.stringify(String(raw.type)).slice(0, 60)}`);
  }
}

/** The bytes of a validated image message, ready to write. */
export function imageBytes(message: { format: 'png' | 'svg'; data: string }): Uint8Array {
  if (message.format === 'png') return Buffer.from(message.data.slice(pngPrefix.length), 'base64');
  return Buffer.from(message.data, 'utf8');
}

/**
 * Reads the run folders back from the state the webview saved (handed to the serializer after a
 * reload). Returns undefined when the state is not ours or is damaged.
 */
export function restoredRunDirs(state: unknown): string[] | undefined {
  if (!isRecord(state)) return undefined;
  const runDirs = (state as Partial<PanelUiState>).runDirs;
  if (!Array.isArray(runDirs) || runDirs.length < 1 || runDirs.length > 2) return undefined;
  if (!runDirs.every((dir) => typeof dir === 'string' && dir.length > 0 && dir.length < 4096 && !dir.includes('\0'))) {
    return undefined;
  }
  return runDirs as string[];
}
