// How YCSB 0.17.0 (default hdrhistogram measurements, Java 17) prints numbers, status lines and the
// final report, so the stand-in's output has exactly the real shapes (../shared/ycsb/OUTPUT.md).
// Pure functions, no I/O.

export const longMax = 9223372036854775807n;

/** Java's Double.toString: `0.0`, `576.856355124302`, `3.324947819354839E7`, `NaN`, `Infinity`. */
export function javaDouble(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    const text = String(value);
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa, exponent] = value.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

/** java.text.DecimalFormat("#.##") in an English locale (HALF_EVEN, no grouping, no trailing zeros). */
export function decimalFormat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '\u221e' : '-\u221e';
  const scaled = value * 100;
  const floor = Math.floor(scaled);
  const fraction = scaled - floor;
  let rounded = fraction > 0.5 + 1e-9 ? floor + 1 : fraction < 0.5 - 1e-9 ? floor : floor % 2 === 0 ? floor : floor + 1;
  if (Object.is(rounded, -0)) rounded = 0;
  return String(rounded / 100);
}

/** `YYYY-MM-DD HH:mm:ss:SSS` in local time (Java SimpleDateFormat "yyyy-MM-dd HH:mm:ss:SSS"). */
export function statusTimestamp(date: Date): string {
  const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}:${pad(date.getMilliseconds(), 3)}`;
}

/** YCSB's RemainingFormatter: pieces each followed by one space, with its singular/plural quirk. */
export function remainingText(seconds: bigint): string {
  let out = '';
  const days = seconds / 86400n;
  const hours = (seconds / 3600n) % 24n;
  const minutes = (seconds / 60n) % 60n;
  if (days > 0n) out += `${days} ${days === 1n ? 'day' : 'days'} `;
  if (hours > 0n) out += `${hours} ${hours === 1n ? 'hour' : 'hours'} `;
  if (days === 0n && minutes > 0n) out += `${minutes} ${minutes === 1n ? 'minute' : 'minutes'} `;
  if (out === '') {
    const secs = String(seconds % 60n);
    out = `${secs} ${secs.length === 1 ? 'second' : 'seconds'} `;
  }
  return out;
}

/** Java's `(long) Math.ceil(x)`: NaN becomes 0, overflow saturates at Long.MAX_VALUE. */
export function javaLongOfCeil(value: number): bigint {
  if (Number.isNaN(value)) return 0n;
  if (value >= 9.223372036854776e18) return longMax;
  if (value <= 0) return 0n;
  return BigInt(Math.ceil(value));
}

/** Latency samples of one measurement (µs), with HdrHistogram-like summaries. */
export class LatencySamples {
  values: number[] = [];
  sum = 0;
  min = Infinity;
  max = -Infinity;
  /** Only this many samples are kept for percentiles; counts and sums stay exact. */
  constructor(private readonly keep = 200_000) {}
  count = 0;

  add(latencyUs: number): void {
    const value = Math.max(0, Math.trunc(latencyUs));
    this.count += 1;
    this.sum += value;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
    if (this.values.length < this.keep) this.values.push(value);
  }

  percentile(p: number): number {
    if (this.values.length === 0) return 0;
    const sorted = [...this.values].sort((a, b) => a - b);
    const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
    return sorted[Math.min(sorted.length, rank) - 1];
  }

  /** The status-line summary: `[NAME: Count=.., Max=.., Min=.., Avg=.., 90=.., 99=.., 99.9=.., 99.99=..]`. */
  summary(name: string): string {
    if (this.count === 0) {
      return `[${name}: Count=0, Max=0, Min=${longMax}, Avg=NaN, 90=0, 99=0, 99.9=0, 99.99=0]`;
    }
    const percentiles = [90, 99, 99.9, 99.99].map((p) => `${p}=${decimalFormat(this.percentile(p))}`).join(', ');
    return `[${name}: Count=${this.count}, Max=${this.max}, Min=${this.min}, Avg=${decimalFormat(this.sum / this.count)}, ${percentiles}]`;
  }
}

/** One measurement of the final report: all samples plus `Return=` counts (in first-seen order). */
export interface Measurement {
  name: string;
  total: LatencySamples;
  interval: LatencySamples;
  returnCodes: Map<string, number>;
}

/** ConcurrentHashMap<String,...> iteration order for a small map (16 bins), ties in insertion order. */
export function concurrentHashMapOrder<T extends { name: string }>(items: T[]): T[] {
  const javaHash = (text: string): number => {
    let hash = 0;
    for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
    return hash;
  };
  const bins = items.length >= 12 ? 64 : 16;
  return items
    .map((item, index) => ({ item, index, bin: ((javaHash(item.name) ^ (javaHash(item.name) >>> 16)) & 0x7fffffff) & (bins - 1) }))
    .sort((a, b) => a.bin - b.bin || a.index - b.index)
    .map((entry) => entry.item);
}

export interface ReportRecord {
  metric: string;
  measurement: string;
  /** Already in Java's text form (`123`, `0.0`, `NaN`). */
  value: string;
}

/** `95th`, `1st`, `22nd`, `13th`, `99.9`: how a report names a percentile (English ordinals for integers). */
export function percentileLabel(percentile: number): string {
  if (!Number.isInteger(percentile)) return javaDouble(percentile);
  const lastTwo = percentile % 100;
  const suffix = lastTwo >= 11 && lastTwo <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][percentile % 10] ?? 'th';
  return `${percentile}${suffix}`;
}

/** Every record of the final report in the text exporter's order. */
export function reportRecords(runtimeMs: number, operations: number, measurements: Measurement[], percentiles: number[] = [95, 99]): ReportRecord[] {
  const records: ReportRecord[] = [
    { metric: 'OVERALL', measurement: 'RunTime(ms)', value: String(runtimeMs) },
    { metric: 'OVERALL', measurement: 'Throughput(ops/sec)', value: javaDouble((1000 * operations) / runtimeMs) },
  ];
  for (const gc of ['G1_Young_Generation', 'G1_Old_Generation']) {
    records.push({ metric: `TOTAL_GCS_${gc}`, measurement: 'Count', value: '0' });
    records.push({ metric: `TOTAL_GC_TIME_${gc}`, measurement: 'Time(ms)', value: '0' });
    records.push({ metric: `TOTAL_GC_TIME_%_${gc}`, measurement: 'Time(%)', value: '0.0' });
  }
  records.push({ metric: 'TOTAL_GCs', measurement: 'Count', value: '0' });
  records.push({ metric: 'TOTAL_GC_TIME', measurement: 'Time(ms)', value: '0' });
  records.push({ metric: 'TOTAL_GC_TIME_%', measurement: 'Time(%)', value: '0.0' });
  for (const measurement of concurrentHashMapOrder(measurements)) {
    const samples = measurement.total;
    const add = (name: string, value: string): void => {
      records.push({ metric: measurement.name, measurement: name, value });
    };
    add('Operations', String(samples.count));
    add('AverageLatency(us)', javaDouble(samples.count === 0 ? NaN : samples.sum / samples.count));
    add('MinLatency(us)', samples.count === 0 ? String(longMax) : String(samples.min));
    add('MaxLatency(us)', samples.count === 0 ? '0' : String(samples.max));
    for (const percentile of percentiles) add(`${percentileLabel(percentile)}PercentileLatency(us)`, String(samples.percentile(percentile)));
    for (const [status, count] of measurement.returnCodes) add(`Return=${status}`, String(count));
  }
  return records;
}

export function textReport(records: ReportRecord[]): string {
  return records.map((record) => `[${record.metric}], ${record.measurement}, ${record.value}\n`).join('');
}

/** Jackson 1.x DefaultPrettyPrinter objects; `array` for JSONArrayMeasurementsExporter. */
export function jsonReport(records: ReportRecord[], array: boolean): string {
  const objects = records.map((record) => {
    const value = /^-?\d+(\.\d+)?(E-?\d+)?$/.test(record.value) ? record.value : JSON.stringify(record.value);
    return `{\n  "metric" : ${JSON.stringify(record.metric)},\n  "measurement" : ${JSON.stringify(record.measurement)},\n  "value" : ${value}\n}`;
  });
  return array ? `[ ${objects.join(', ')} ]` : objects.join(' ');
}

/** One `-s` status line (without the newline). */
export function statusLine(options: {
  now: Date;
  label: string;
  elapsedMs: number;
  totalOps: number;
  intervalOps: number;
  intervalMs: number;
  /** Ops still to do over all threads; 0 or undefined means "no estimate". */
  todo: number;
  summaries: string[];
}): string {
  let line = `${options.label}${statusTimestamp(options.now)} ${Math.floor(options.elapsedMs / 1000)} sec: ${options.totalOps} operations; `;
  if (options.totalOps !== 0) line += `${decimalFormat((options.intervalOps * 1000) / options.intervalMs)} current ops/sec; `;
  if (options.todo > 0) {
    const throughput = (options.totalOps * 1000) / options.elapsedMs;
    line += `est completion in ${remainingText(javaLongOfCeil(options.todo / throughput))}`;
  }
  for (const summary of options.summaries) line += `${summary} `;
  return line;
}
