// The one reader of `results.jsonl`, shared by resume, run listing, `report` and the results panel.
// It streams the file line by line, so a file of any size is read (a whole-file string stops at
// V8's ~512 MiB limit), and it applies the one rule for a cell id that appears on several lines:
//
//   an `ok` line wins over a `failed` one; among lines of the same status the first one wins.
//
// The engine appends each cell once (resume skips ids that have a line, and a run folder is locked
// while a sweep writes it, see runLock.ts), so duplicates only come from older versions that had no
// lock, or from hand edits: the first line is the one the engine itself took as the cell's outcome,
// and a later `failed` line can never hide an earlier `ok` one.
//
// A line that does not parse is skipped with a warning; only the last line may be torn (the run is
// writing it or crashed while writing it). A complete last line without its newline is a result.
// The file is opened as runFolderFiles.ts opens every run-folder file (no link, regular files
// only) and read up to the size it had when opened (at most `maxResultsBytes`); a line longer than
// `maxLineBytes` is skipped without being held in memory; a line that is not a valid cell record
// (cellRecordCheck.ts) is named and left out, so one crafted line cannot take a view down.
import { cellRecordProblem } from './cellRecordCheck';
import { describeSize, openRunFile } from './runFolderFiles';
import type { CellResult } from '../model';

/** No cell record comes near this (the biggest, with long time series, are a few MB). */
export const maxLineBytes = 64 * 1024 * 1024;
/** Where a reader stops: far beyond any real run, short of reading for hours. */
export const maxResultsBytes = 16 * 1024 ** 3;

export interface ResultLines {
  /** One result per cell id (see the rule above), in the file order of the chosen lines. */
  results: CellResult[];
  /** The last line does not parse: the run stopped while writing it. */
  tornTail: boolean;
  /** The file does not end with a newline (the last line may still be complete). */
  unterminated: boolean;
  /** Lines that were not valid JSON or not complete cell results (the torn tail included). */
  skippedLines: number;
  /** Ids that appeared on more than one line. */
  duplicates: number;
  /** What was skipped or odd, worded for a user. */
  warnings: string[];
}

/** Collects lines one at a time; the streaming and the in-memory readers both feed it. */
export class ResultLineCollector {
  private readonly chosen = new Map<string, { result: CellResult; position: number }>();
  private readonly duplicated = new Set<string>();
  private readonly warnings: string[] = [];
  private skipped = 0;
  private pendingBad: number | undefined;
  private position = 0;

  constructor(private readonly name: string) {}

  /** One line, without its newline; `lineNumber` is 1-based. */
  add(rawLine: string, lineNumber: number): void {
    this.flushPendingBad();
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // reported once we know whether it was the last line
      this.pendingBad = lineNumber;
      this.skipped++;
      return;
    }
    // other record kinds: not for readers
    if (typeof value !== 'object' || value === null || (value as { kind?: unknown }).kind !== 'cell') return;
    if (!normaliseCellResult(value)) {
      this.skipped++;
      this.warnings.push(`Line ${lineNumber} of ${this.name} is not a complete cell result; skipped.`);
      return;
    }
    // complete, but every field a view uses must have its type, and nothing may nest without end
    const problem = cellRecordProblem(value);
    if (problem) {
      this.skipped++;
      this.warnings.push(
        `Line ${lineNumber} of ${this.name} (cell ${value.id.slice(0, 200)}) is not a valid cell record: ${problem}; it is left out (a resume runs that cell again).`,
      );
      return;
    }
    const position = this.position++;
    const earlier = this.chosen.get(value.id);
    if (earlier === undefined) {
      this.chosen.set(value.id, { result: value, position });
      return;
    }
    this.duplicated.add(value.id);
    if (earlier.result.status === 'failed' && value.status === 'ok')
      this.chosen.set(value.id, { result: value, position });
  }

  /** A line longer than maxLineBytes: counted and named, never held in memory. */
  addTooLong(lineNumber: number, bytes: number): void {
    this.flushPendingBad();
    this.skipped++;
    this.warnings.push(
      `Line ${lineNumber} of ${this.name} is longer than ${describeSize(maxLineBytes)} (${describeSize(bytes)}); it was skipped without being read into memory.`,
    );
  }

  /** Something about the file as a whole, for the user. */
  note(warning: string): void {
    this.warnings.push(warning);
  }

  finish(unterminated: boolean): ResultLines {
    const tornTail = this.pendingBad !== undefined;
    if (tornTail) {
      this.warnings.push(
        `The last line of ${this.name} is incomplete (the run was still writing it or was interrupted); it was ignored and every earlier line was read.`,
      );
      this.pendingBad = undefined;
    }
    if (this.duplicated.size > 0) {
      this.warnings.push(
        `${this.duplicated.size} cell(s) appear more than once in ${this.name}; for each, the first ok line was used (or the first line when none is ok).`,
      );
    }
    const results = [...this.chosen.values()].sort((a, b) => a.position - b.position).map((entry) => entry.result);
    return {
      results,
      tornTail,
      unterminated,
      skippedLines: this.skipped,
      duplicates: this.duplicated.size,
      warnings: this.warnings,
    };
  }

  private flushPendingBad(): void {
    if (this.pendingBad === undefined) return;
    this.warnings.push(`Line ${this.pendingBad} of ${this.name} is not valid JSON; skipped.`);
    this.pendingBad = undefined;
  }
}

/** Reads results text already in memory (tests, small fixtures). */
export function parseResultLines(text: string, name = 'results.jsonl'): ResultLines {
  const collector = new ResultLineCollector(name);
  const lines = text.split('\n');
  const unterminated = lines[lines.length - 1] !== '';
  lines.forEach((line, index) => collector.add(line, index + 1));
  return collector.finish(unterminated && text !== '');
}

/**
 * Streams a results file; undefined when it does not exist. A link, a FIFO or a device is refused
 * (RunFileRefused, runFolderFiles.ts); other read errors are thrown.
 */
export async function readResultLines(
  path: string,
  name = 'results.jsonl',
  limits: { maxLineBytes?: number; maxBytes?: number } = {},
): Promise<ResultLines | undefined> {
  const lineLimit = limits.maxLineBytes ?? maxLineBytes;
  const byteLimit = limits.maxBytes ?? maxResultsBytes;
  const opened = await openRunFile(path);
  if (!opened) return undefined;
  const collector = new ResultLineCollector(name);
  // what the file held when it was opened: a file that grows while it is read ends here
  const end = Math.min(opened.size, byteLimit);
  if (opened.size > byteLimit)
    collector.note(`${name} is ${describeSize(opened.size)}; only its first ${describeSize(byteLimit)} were read.`);
  let lineNumber = 0;
  let pieces: Buffer[] = [];
  let pending = 0; // bytes of the line so far
  let tooLong = false;
  let lastByte = -1;
  const take = (piece: Buffer): void => {
    pending += piece.length;
    if (tooLong) return;
    if (pending > lineLimit) {
      tooLong = true;
      pieces = [];
      return;
    }
    // a copy: the stream reuses nothing, but a subarray would pin its chunk
    if (piece.length > 0) pieces.push(Buffer.from(piece));
  };
  const endLine = (): void => {
    lineNumber++;
    if (tooLong) collector.addTooLong(lineNumber, pending);
    else collector.add(Buffer.concat(pieces).toString('utf8'), lineNumber);
    pieces = [];
    pending = 0;
    tooLong = false;
  };
  if (end > 0) {
    for await (const chunk of opened.handle.createReadStream({
      start: 0,
      end: end - 1,
      highWaterMark: 1024 * 1024,
    }) as AsyncIterable<Buffer>) {
      let start = 0;
      let newline: number;
      while ((newline = chunk.indexOf(0x0a, start)) >= 0) {
        take(chunk.subarray(start, newline));
        endLine();
        start = newline + 1;
      }
      if (start < chunk.length) take(chunk.subarray(start));
      if (chunk.length > 0) lastByte = chunk[chunk.length - 1] as number;
    }
  } else await opened.handle.close();
  const unterminated = lastByte !== -1 && lastByte !== 0x0a;
  if (pending > 0) endLine();
  return collector.finish(unterminated);
}

/** Whether a parsed line is a usable cell result; fills the optional parts old writers left out. */
export function normaliseCellResult(value: unknown): value is CellResult {
  const cell = value as CellResult;
  if (typeof cell !== 'object' || cell === null) return false;
  if (typeof cell.id !== 'string' || !isCellKey(cell.key)) return false;
  if (cell.status !== 'ok' && cell.status !== 'failed') return false;
  if (typeof cell.key.axes !== 'object' || cell.key.axes === null || Array.isArray(cell.key.axes)) cell.key.axes = {};
  if (!Array.isArray(cell.logs)) cell.logs = [];
  if (cell.marks !== undefined && !Array.isArray(cell.marks)) delete cell.marks;
  return (
    cell.run === undefined ||
    (typeof cell.run === 'object' &&
      cell.run !== null &&
      typeof cell.run.operations === 'object' &&
      cell.run.operations !== null)
  );
}

export function isCellKey(value: unknown): value is CellResult['key'] {
  const key = value as CellResult['key'];
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof key.interface === 'string' &&
    typeof key.stack === 'string' &&
    typeof key.threads === 'number' &&
    typeof key.repetition === 'number'
  );
}
