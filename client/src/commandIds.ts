// Command ids and titles, kept stable: the real-editor tests and users' keybindings depend on
// them. package.json `contributes.commands` must list exactly these (a test checks it).
export const commands = {
  runBenchmark: { id: 'onloadBench.runBenchmark', title: 'Run Couchbase benchmark' },
  resumeRun: { id: 'onloadBench.resumeRun', title: 'Resume interrupted run' },
  openResults: { id: 'onloadBench.openResults', title: 'Open results' },
  compareRuns: { id: 'onloadBench.compareRuns', title: 'Compare two runs' },
  showEffectiveConfiguration: {
    id: 'onloadBench.showEffectiveConfiguration',
    title: 'Show effective Onload configuration',
  },
  setPassword: { id: 'onloadBench.setPassword', title: 'Set Couchbase password' },
  clearPassword: { id: 'onloadBench.clearPassword', title: 'Clear Couchbase password' },
  newPlan: { id: 'onloadBench.newPlan', title: 'New benchmark plan from template' },
  showCommands: { id: 'onloadBench.showCommands', title: 'Show commands (dry run)' },
  revealRunFolder: { id: 'onloadBench.revealRunFolder', title: 'Reveal run folder' },
  deleteRun: { id: 'onloadBench.deleteRun', title: 'Delete run' },
  refreshRuns: { id: 'onloadBench.refreshRuns', title: 'Refresh runs' },
} as const;

export const commandCategory = 'Onload Bench';
export const logChannelName = 'Onload Bench';
/** The getting-started walkthrough's id in package.json `contributes.walkthroughs`. */
export const gettingStartedWalkthrough = 'onloadBench.gettingStarted';
