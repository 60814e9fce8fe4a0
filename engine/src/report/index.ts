// The engine's door for reading: everything the edges (the extension, its engine process and the
// `onload-bench` CLI) use to read what runs left and to show it, and nothing else. client/ and cli/
// import the engine through this file and ../index.ts (running) only, never a file behind them
// (.dependency-cruiser.cjs, `edges-use-the-engine-entries`), so the engine's inside can move
// without the edges noticing. It stays light: no SSH, no plan, no language service behind it
// (`engine-read-entry-stays-light`), because the extension host loads it at activation for the
// results panel, the Runs view and the task terminal, while ../index.ts waits for a first run.

// A run folder: its files, its records and manifest, the runs beside it and which one a resume takes.
export { readRunFolder } from '../results/resultsFile';
export { listRuns, surveyRuns, newestFirst, readManifest, manifestFile, resultsFile } from '../results/resultsStore';
export type { RunSummary } from '../results/resultsStore';
export { latestUnfinishedRun, unfinishedRuns } from '../results/resumableRuns';
export { runFolderFileToOpen } from '../results/runFolderFiles';
export type { CellKey, CellResult, RunEnvironment, RunManifest, YcsbReport } from '../model';
export { parseYcsbReport } from '../ycsb/ycsbOutput';

// The report: its tables and their metrics, the verdict every view opens with, CSV, the HTML report.
export {
  buildReportTable,
  buildReportTables,
  commonMetrics,
  defaultMetrics,
  environmentFacts,
  measuredMetrics,
  metricDefinition,
  renderReport,
} from './report';
export type { ReportGroup, ReportInput, ReportTable, StackCell, StackComparison } from './report';
export { buildVerdict, renderVerdict } from './verdict';
export { reportTablesToCsv } from './csv';
export { buildHtmlReport } from './htmlReport';

// What the tables and charts are drawn with: axes, scaling and cost, statistics, names, units, colours.
export { clusterSizeAxis, sweptAxes, threadsAxis } from './axes';
export { bestSizeText, buildScaling, efficiencyText, planCost, renderScaling } from './scaling';
export type { CostSettings } from './scaling';
export { compareSamples, relativeHalfWidth } from './statistics';
export { compareGains } from './gainChange';
export { baselineStack, stackDisplayNames, stackLabel } from './stackLabels';
export { cellName, formatDuration, threadsText } from './names';
export { metricDisplayUnit } from './displayUnits';
export { seriesPalette } from './palette';
export { ninesTicks, percentileToNines } from './percentileScale';

// A cell's evidence as shown: marks and their legend, spectra and time series, CPU, proofs, cluster.
export { cellMarks, markLabel } from '../evidence/marks';
export { markLegend } from './evidence/markExplanations';
export { cellTimeSeries, pointSpectra, spectrumOperations, thinByX } from './evidence/evidenceViews';
export { evidenceMetrics } from './evidence/evidenceMetrics';
export { busiestThreads, cpuWindowText } from './evidence/busiestThreads';
export { busyPollingNote } from './cpuTableNotes';
export { cellProofs } from './evidence/cellProofs';
export { clusterProof } from './evidence/clusterProof';

// Text from run data as every edge prints it: an engine error in words, secrets and control characters out.
export { formatEngineError } from '../errors';
export { redactSecrets } from '../remote/redaction';
export { escapeControlCharacters, withControlCharactersEscaped } from './controlCharacters';
