// Requests the client and server exchange beyond standard LSP. Mirrored by the client; both import
// this file so the names cannot drift.
export const EffectiveConfigurationRequest = {
  method: 'onloadBench/effectiveConfiguration',
} as const;

export interface EffectiveConfigurationParams {
  /** URI of an Onload profile. */
  uri: string;
}

export interface EffectiveConfigurationResult {
  /** A Markdown rendering of every option the profile sets after its imports are resolved. */
  markdown: string;
  /**
   * The same as data: option name, the value exported (an empty value exports the name itself),
   * what libonload uses when that differs (`used`), and where it was set (uri and 0-based line).
   */
  entries: { name: string; value: string; used?: string; uri: string; line: number; conditional: boolean }[];
}
