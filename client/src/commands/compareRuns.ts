// "Compare two runs": the candidate (run B) against the baseline (run A) in one results panel;
// picked one after the other, the baseline first.
import type { ExtensionServices } from '../extensionServices';
import { pickBaselineThenCandidate, runDirArgument, workspaceRuns } from './pickRun';

export async function compareRunsCommand(
  services: ExtensionServices,
  first?: unknown,
  second?: unknown,
): Promise<[string, string] | undefined> {
  // From the explorer with two folders selected, VS Code passes (clicked, [all selected]).
  const selected = Array.isArray(second)
    ? second.map(runDirArgument).filter((dir): dir is string => dir !== undefined)
    : [];
  const given =
    selected.length === 2
      ? selected
      : [runDirArgument(first), runDirArgument(second)].filter((dir): dir is string => dir !== undefined);
  // One run given (a Runs view item, a folder): it is the baseline, and the candidate is picked.
  const pair =
    given.length === 2
      ? ([given[0]!, given[1]!] as [string, string])
      : await pickBaselineThenCandidate(await workspaceRuns(services), 'Compare two runs', given[0]);
  if (!pair) return undefined;
  services.results.compare(pair[0], pair[1]);
  return pair;
}
