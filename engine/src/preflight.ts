import type { PreflightCheck } from './events';
import type { PreflightOptions } from './options';
export async function runPreflight(options: PreflightOptions): Promise<PreflightCheck[]> {
  void options;
  throw new Error('runPreflight: not implemented yet');
}
