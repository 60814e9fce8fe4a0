import type { RunOutcome } from './events';
import type { RunSweepOptions } from './options';
export async function runSweep(options: RunSweepOptions): Promise<RunOutcome> {
  void options;
  throw new Error('runSweep: not implemented yet');
}
