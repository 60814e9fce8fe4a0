// Reading `manifest.json` defensively: a run folder can come from anyone (a colleague, a shared
// drive, a crafted archive), so every field a reader touches is checked for its type before use.
// A field of the wrong type is dropped with a warning rather than reaching the report or the panel
// as a value they would crash on (`environment.hosts: null`, `createdAt` missing...).
import type { CellKey, RunManifest } from '../model';
import { structureProblem } from './cellRecordCheck';
import { isCellKey } from './resultsReader';
import { readRunFileText, RunFileRefused } from './runFolderFiles';

/** A manifest is small (the plan, the cell list, the environment); anything this big is not one. */
export const maxManifestBytes = 64 * 1024 * 1024;

export type ManifestRead = { ok: true; text: string } | { ok: false; missing: boolean; reason: string };

/**
 * The manifest's text: a regular file reached without a link (runFolderFiles.ts), refused when too
 * big to be a manifest instead of running out of memory, never waited on (a FIFO) or read without end.
 */
export async function readManifestText(path: string): Promise<ManifestRead> {
  try {
    const text = await readRunFileText(path, maxManifestBytes);
    return text === undefined ? { ok: false, missing: true, reason: `${path} does not exist` } : { ok: true, text };
  } catch (error) {
    return {
      ok: false,
      missing: false,
      reason: error instanceof RunFileRefused ? error.message : (error as Error).message,
    };
  }
}

/**
 * A usable manifest from parsed JSON, or why it is not one (`reason` follows the file name:
 * "manifest.json is not valid JSON (...)"). Known fields of the wrong type are
 * repaired or dropped (each noted in `problems`); fields this version does not know are kept as
 * they are, for newer readers.
 */
export function normaliseManifest(value: unknown, problems: string[]): { manifest?: RunManifest; reason?: string } {
  if (!isRecord(value)) return { reason: 'is not a run manifest (not a JSON object)' };
  if (value.kind !== 'manifest') return { reason: 'is not a run manifest ("kind" is not "manifest")' };
  if (!Array.isArray(value.cells)) return { reason: 'is not a run manifest (no "cells" list)' };
  const cells: { id: string; key: CellKey }[] = [];
  let badCells = 0;
  for (const cell of value.cells as unknown[]) {
    if (
      isRecord(cell) &&
      typeof cell.id === 'string' &&
      isCellKey(cell.key) &&
      (!isRecord(cell.key.axes) ||
        Object.values(cell.key.axes).every((axis) => typeof axis === 'string' || typeof axis === 'number'))
    ) {
      const key = cell.key;
      if (!isRecord(key.axes)) key.axes = {};
      if (typeof key.address !== 'string') key.address = '';
      cells.push(cell as { id: string; key: CellKey });
    } else badCells++;
  }
  value.cells = cells;
  if (badCells > 0) problems.push(`${badCells} cell(s) of the manifest are damaged and were left out.`);
  if (typeof value.formatVersion !== 'number') value.formatVersion = 0;
  if (typeof value.runId !== 'string') {
    problems.push('The manifest has no run id.');
    value.runId = '';
  }
  if (typeof value.createdAt !== 'string') {
    problems.push('The manifest has no start time (createdAt).');
    value.createdAt = '';
  }
  if (value.planPath !== undefined && typeof value.planPath !== 'string') delete value.planPath;
  if (value.environment !== undefined && !repairEnvironment(value)) {
    problems.push('The environment record of the manifest is damaged; what could not be read is not shown.');
  }
  return { manifest: value as unknown as RunManifest };
}

/** Repairs `environment` in place; false when something had to be dropped. */
function repairEnvironment(manifest: Record<string, unknown>): boolean {
  if (!isRecord(manifest.environment)) {
    delete manifest.environment;
    return false;
  }
  const environment = manifest.environment;
  let intact = true;
  if (!isRecord(environment.hosts)) {
    intact = environment.hosts === undefined;
    environment.hosts = {};
  }
  for (const [host, entry] of Object.entries(environment.hosts as Record<string, unknown>)) {
    if (!isRecord(entry)) {
      delete (environment.hosts as Record<string, unknown>)[host];
      intact = false;
      continue;
    }
    if (entry.role !== 'server' && entry.role !== 'client') entry.role = 'server';
    for (const field of ['kernel', 'couchbase', 'ycsb', 'java', 'onload']) {
      if (entry[field] !== undefined && typeof entry[field] !== 'string') {
        delete entry[field];
        intact = false;
      }
    }
    if (entry.interfaces !== undefined) {
      if (!isRecord(entry.interfaces)) {
        delete entry.interfaces;
        intact = false;
      } else {
        for (const [address, nic] of Object.entries(entry.interfaces)) {
          if (!isRecord(nic)) {
            delete entry.interfaces[address];
            intact = false;
            continue;
          }
          for (const field of ['device', 'driver', 'firmware'])
            if (nic[field] !== undefined && typeof nic[field] !== 'string') delete nic[field];
        }
      }
    }
  }
  if (!isRecord(environment.profiles)) {
    intact &&= environment.profiles === undefined;
    environment.profiles = {};
  }
  for (const [name, options] of Object.entries(environment.profiles as Record<string, unknown>)) {
    if (!isRecord(options)) {
      delete (environment.profiles as Record<string, unknown>)[name];
      intact = false;
      continue;
    }
    for (const [option, setting] of Object.entries(options)) if (typeof setting !== 'string') delete options[option];
  }
  return intact;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses and repairs a manifest's text (see normaliseManifest). */
export function parseManifest(text: string, problems: string[]): { manifest?: RunManifest; reason?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { reason: `is not valid JSON (${(error as Error).message})` };
  }
  // a crafted manifest must not overflow a reader's stack (the comparison of two runs' plans)
  const structure = structureProblem(value);
  if (structure) return { reason: structure.replace(/^it /, '') };
  return normaliseManifest(value, problems);
}
