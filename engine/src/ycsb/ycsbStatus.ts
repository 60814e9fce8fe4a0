// Parses YCSB's `-s` status lines (stderr, every `status.interval` seconds) for live progress.
// Pure. The values in the `[...]` summaries cover the last interval only, in microseconds.
//
// Summaries of every measurement type are read: hdrhistogram (`[READ: Count=.., Max=.., ...]`),
// histogram and timeseries (`[READ AverageLatency(us)=..]`) and raw (`READ count: .., average latency(us): ..`).
// Shapes handled: an optional label before the timestamp, no timestamp (YCSB 0.1.x), no
// `current ops/sec` (0 operations so far), no `est completion` (nothing left to do), `∞`, `NaN`,
// U+FFFD or `?` for values Java could not print, decimal commas from non-English locales, the
// trailing space, and two-in-one measurement types whose one status "line" spans several physical
// lines (`[HdrREAD: ...]` then `[BucketREAD ...]` on the next line).
import type { LiveStatus } from '../events';

/** One operation's figures in a status line (last interval only). */
export interface StatusOperation {
  /** Operations measured in the interval (hdrhistogram and raw summaries). */
  count?: number;
  averageUs?: number;
  minUs?: number;
  maxUs?: number;
  /** `90`, `99`, `99.9`, `99.99` (and `50` on newer YCSB), in µs. */
  percentilesUs: Record<string, number>;
}

export interface YcsbStatus extends LiveStatus {
  /** Whole seconds since the status thread started. */
  elapsedSec: number;
  /** Operations completed so far by all threads, failures included. */
  operations: number;
  /** Throughput of the last interval; 0 when YCSB printed none, `∞` or `NaN`. */
  currentOpsPerSec: number;
  /** YCSB's own estimate of the time left, when it printed one. */
  estimatedRemainingSec?: number;
  /** The status line's timestamp as printed (local time of the client host), when present. */
  timestamp?: string;
  /** The `-l` label, when one was set. */
  label?: string;
  /** Keyed by the measurement name as printed (`READ`, `UPDATE-FAILED`, `HdrSCAN`, `Intended-READ`). */
  perOperation: Record<string, StatusOperation>;
}

const statusPattern =
  /^(?<label>.*?)(?:(?<timestamp>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}:\d{3}) )?(?<elapsed>\d+) sec: (?<operations>\d+) operations; (?:(?<current>\S+) current ops\/sec; )?(?:est completion in (?<remaining>(?:\d+ [a-z]+ )+))?(?<rest>.*)$/s;

/** Parses one status line (two-in-one lines joined with `\n`); undefined when it is not one. */
export function parseStatusLine(text: string): YcsbStatus | undefined {
  const match = statusPattern.exec(text.replace(/\r/g, ''));
  if (!match?.groups) return undefined;
  const groups = match.groups;
  const status: YcsbStatus = {
    elapsedSec: Number(groups.elapsed),
    operations: Number(groups.operations),
    currentOpsPerSec: 0,
    perOperation: {},
  };
  if (groups.current !== undefined) {
    const current = localeNumber(groups.current);
    if (current !== undefined && Number.isFinite(current)) status.currentOpsPerSec = current;
  }
  if (groups.remaining !== undefined) {
    // With no operation done yet YCSB estimates Long.MAX_VALUE seconds (`106751991167300 days`).
    const remaining = remainingSeconds(groups.remaining);
    if (remaining < 1e12) status.estimatedRemainingSec = remaining;
  }
  if (groups.timestamp !== undefined) status.timestamp = groups.timestamp;
  const label = groups.label.trim();
  if (label !== '') status.label = label;
  for (const summary of groups.rest.matchAll(/\[([^\]]*)\]/g)) {
    const parsed = parseSummary(summary[1]);
    if (parsed) status.perOperation[parsed.name] = parsed.figures;
  }
  // The raw measurement type prints its summaries without brackets.
  for (const [, name, count, average] of groups.rest.matchAll(
    /(?:^|\s)([^\s[\]]+) count: (\d+), average latency\(us\): (\S+)/g,
  )) {
    const figures: StatusOperation = { count: Number(count), percentilesUs: {} };
    const value = localeNumber(average);
    if (value !== undefined && Number.isFinite(value)) figures.averageUs = value;
    status.perOperation[name] = figures;
  }
  return status;
}

/** `NAME: Count=1, Max=2, ...` (hdrhistogram) or `NAME AverageLatency(us)=590.8` (histogram, timeseries). */
function parseSummary(text: string): { name: string; figures: StatusOperation } | undefined {
  const hdr = /^(.+?): (Count=.*)$/s.exec(text);
  if (hdr) {
    const figures: StatusOperation = { percentilesUs: {} };
    for (const field of hdr[2].split(', ')) {
      const equals = field.indexOf('=');
      if (equals < 0) continue;
      const key = field.slice(0, equals).trim();
      const value = localeNumber(field.slice(equals + 1));
      if (value === undefined || !Number.isFinite(value)) continue;
      if (key === 'Count') figures.count = value;
      else if (key === 'Avg') figures.averageUs = value;
      else if (key === 'Min') figures.minUs = value;
      else if (key === 'Max') figures.maxUs = value;
      else if (/^\d+(\.\d+)?$/.test(key)) figures.percentilesUs[String(Number(key))] = value;
    }
    // An interval without operations prints Min=Long.MAX_VALUE, Avg=NaN and zeros: no figures.
    if (figures.count === 0) return { name: hdr[1], figures: { count: 0, percentilesUs: {} } };
    return { name: hdr[1], figures };
  }
  const histogram = /^(.+?) AverageLatency\(us\)=(\S+)$/s.exec(text.trim());
  if (histogram) {
    const average = localeNumber(histogram[2]);
    const figures: StatusOperation = { percentilesUs: {} };
    if (average !== undefined && Number.isFinite(average)) figures.averageUs = average;
    return { name: histogram[1], figures };
  }
  return undefined;
}

/** Java DecimalFormat output in any locale: `1234.5`, `1234,5`, `∞`, `NaN`, U+FFFD or `?`. */
function localeNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '∞') return Infinity;
  if (trimmed === 'NaN' || trimmed === '\ufffd' || trimmed === '?') return NaN;
  const normalised = trimmed.replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(normalised)) return undefined;
  return Number(normalised);
}

const unitSeconds: Record<string, number> = { day: 86400, hour: 3600, minute: 60, second: 1 };

/** `1 minute `, `2 days 3 hours `, `5 second ` (YCSB's singular/plural quirk) -> seconds. */
function remainingSeconds(text: string): number {
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+) ([a-z]+?)s? /g))
    total += Number(amount) * (unitSeconds[unit] ?? 0);
  return total;
}

/**
 * Feeds stderr (or merged output) chunk by chunk and returns each status as soon as it is whole.
 * A physical line that ends without YCSB's trailing space is waiting for a continuation line (the
 * second half of a two-in-one summary); it is completed by that line, by any other line, or by `end()`.
 */
export class StatusLineReader {
  private partialLine = '';
  private pending: string | undefined;

  /** Adds a chunk of output; returns the statuses completed by it. */
  push(chunk: string): YcsbStatus[] {
    const statuses: YcsbStatus[] = [];
    const lines = (this.partialLine + chunk).split('\n');
    this.partialLine = lines.pop() ?? '';
    for (const line of lines) this.acceptLine(line.replace(/\r$/, ''), statuses);
    return statuses;
  }

  /** Flushes what is left at the end of the stream. */
  end(): YcsbStatus[] {
    const statuses: YcsbStatus[] = [];
    if (this.partialLine !== '') this.acceptLine(this.partialLine.replace(/\r$/, ''), statuses);
    this.partialLine = '';
    this.flushPending(statuses);
    return statuses;
  }

  private acceptLine(line: string, statuses: YcsbStatus[]): void {
    // A continuation starts with `[` and is not a report line (`[OVERALL], RunTime(ms), 1`).
    if (this.pending !== undefined && line.startsWith('[') && !/^\[[^\]]*\], /.test(line)) {
      this.pending += `\n${line}`;
    } else {
      this.flushPending(statuses);
      if (!/ sec: \d+ operations; /.test(line)) return;
      this.pending = line;
    }
    if (this.pending.endsWith(' ')) this.flushPending(statuses);
  }

  private flushPending(statuses: YcsbStatus[]): void {
    if (this.pending === undefined) return;
    const status = parseStatusLine(this.pending);
    this.pending = undefined;
    if (status) statuses.push(status);
  }
}

/** Every status in a whole log text, in order. */
export function parseStatusLines(text: string): YcsbStatus[] {
  const reader = new StatusLineReader();
  return [...reader.push(text), ...reader.end()];
}
