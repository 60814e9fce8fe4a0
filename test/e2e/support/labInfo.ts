// What the e2e driver tells the tests about the simulated lab, written next to the plan as
// `lab/lab-info.json` in the test workspace. Pure data, shared by the driver and the tests.
export interface LabInfo {
  /** Plan file, relative to the workspace folder. */
  plan: string;
  /** Task name users see for the plan (the file name without `.benchplan.json`). */
  planName: string;
  /** Results folder, absolute. */
  resultsFolder: string;
  /** Number of cells the plan expands to. */
  cells: number;
}

export const labInfoFile = 'lab/lab-info.json';
