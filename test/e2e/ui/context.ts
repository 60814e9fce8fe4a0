// What the e2e driver (run.ts) hands to the UI tests, through a JSON file named by
// ONLOAD_BENCH_UI_CONTEXT.
import { readFileSync } from 'node:fs';
import type { LabInfo } from '../support/labInfo';

export interface UiContext {
  runDir: string;
  vsix: string;
  workspace: string;
  stateDir: string;
  artifactsDir: string;
  lab?: { info: LabInfo; password: string; settings: Record<string, unknown> };
  labMissingReason?: string;
}

export function uiContext(): UiContext {
  const file = process.env.ONLOAD_BENCH_UI_CONTEXT;
  if (!file) throw new Error('ONLOAD_BENCH_UI_CONTEXT is not set: run the UI tests through scripts/e2e.sh');
  return JSON.parse(readFileSync(file, 'utf8')) as UiContext;
}
