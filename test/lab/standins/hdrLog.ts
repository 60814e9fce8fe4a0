// The stand-in ycsb's HDR interval logs, as YCSB 0.17.0 writes them when
// `hdrhistogram.fileoutput=true` (core/.../measurements/OneMeasurementHdrHistogram.java): one file
// `<hdrhistogram.output.path><NAME>.hdr` per measurement, opened when the measurement is created
// (its first operation) with the comment `[Logging for: NAME]`, the log format version, the start
// time and the legend, base time = that moment; one interval line per status summary (the status
// thread, `-s`) and a last one at export, values in µs. The folder is not created: a missing one
// makes the measurement fail ("Failed to open hdr histogram output file"). Written with
// hdr-histogram-js's HistogramLogWriter (the Java HistogramLogWriter's format; interval max in
// units of 10⁶ as Java's default maxValueUnitRatio).
import { appendFileSync, writeFileSync } from 'node:fs';
import { build, HistogramLogWriter, type Histogram } from 'hdr-histogram-js';

class IntervalLog {
  private histogram: Histogram;
  private intervalStart: number;
  private readonly writer: HistogramLogWriter;

  constructor(readonly path: string, name: string, now: number) {
    writeFileSync(path, ''); // throws on a missing folder, as FileOutputStream does
    this.writer = new HistogramLogWriter((text) => appendFileSync(path, text));
    this.writer.outputComment(`[Logging for: ${name}]`);
    this.writer.outputLogFormatVersion();
    this.writer.outputStartTime(now);
    this.writer.baseTime = now;
    this.writer.outputLegend();
    this.histogram = build({ numberOfSignificantValueDigits: 3 });
    this.intervalStart = now;
  }

  record(latencyUs: number): void {
    this.histogram.recordValue(Math.max(0, Math.trunc(latencyUs)));
  }

  /** Writes the interval since the last one and starts the next (Recorder.getIntervalHistogram). */
  interval(now: number): void {
    this.histogram.startTimeStampMsec = this.intervalStart;
    this.histogram.endTimeStampMsec = now;
    this.writer.outputIntervalHistogram(this.histogram, undefined, undefined, 1_000_000);
    this.histogram = build({ numberOfSignificantValueDigits: 3 });
    this.intervalStart = now;
  }
}

/** Every measurement's log, when the properties ask for them. */
export class HdrLogs {
  private readonly logs = new Map<string, IntervalLog | null>();

  private constructor(private readonly prefix: string, private readonly onError: (message: string) => void) {}

  static fromProperties(props: Map<string, string>, onError: (message: string) => void): HdrLogs | undefined {
    if ((props.get('hdrhistogram.fileoutput') ?? 'false').toLowerCase() !== 'true') return undefined;
    return new HdrLogs(props.get('hdrhistogram.output.path') ?? '', onError);
  }

  record(name: string, latencyUs: number): void {
    let log = this.logs.get(name);
    if (log === undefined) {
      try {
        log = new IntervalLog(`${this.prefix}${name}.hdr`, name, Date.now());
      } catch {
        this.onError(`Exception in thread "Thread-1" java.lang.RuntimeException: Failed to open hdr histogram output file\n\tat site.ycsb.measurements.OneMeasurementHdrHistogram.<init>(OneMeasurementHdrHistogram.java:78)`);
        log = null;
      }
      this.logs.set(name, log);
    }
    log?.record(latencyUs);
  }

  /** The status thread's summaries (and the export at the end): one interval per measurement. */
  interval(now = Date.now()): void {
    for (const log of this.logs.values()) log?.interval(now);
  }
}
