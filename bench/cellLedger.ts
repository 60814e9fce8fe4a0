// Where a cell's time goes (issue 24): `npm run bench` records every remote round trip the engine
// makes during a lab sweep (each SSH command or upload, each REST call) against the part of the
// cell it happened in (the sweep's own `phase` events; the Couchbase SDK's own calls travel on its
// connections and are not seen), and this ledger turns them into a per-step
// breakdown: wall time of the step, round trips and the time spent waiting on them, per cell.
// Pure: the bench feeds it clock readings; a unit test checks its sums.

/** One remote round trip: an SSH command or upload (`ssh`), or a REST call (`rest`). */
export interface Trip {
  kind: 'ssh' | 'rest';
  /** The part of the cell it happened in (see `CellLedger.phaseAt`). */
  phase: string;
  /** The engine's own step name (`RemoteRunOptions.step`) or `METHOD /path` for REST. */
  label: string;
  host: string;
  startMs: number;
  endMs: number;
}

export interface StepFigures {
  phase: string;
  /** Wall time of the step, per cell. */
  wallMs: number;
  sshTrips: number;
  restCalls: number;
  /** Time covered by at least one round trip (overlapping trips counted once), per cell. */
  waitingMs: number;
  /** Of that, time covered by YCSB's own commands, per cell. */
  ycsbMs: number;
  /** The step's labels with the most round trips, most first: `label ×count`. */
  busiest: string[];
}

export interface LedgerSummary {
  cells: number;
  steps: StepFigures[];
  /** Round trips per cell over all its steps. */
  sshTripsPerCell: number;
  /** Of them, the traffic watch's looks during YCSB's run (their number grows with the run's length). */
  watchTripsPerCell: number;
  restCallsPerCell: number;
}

/** Before the first cell (opening, pre-flight, host preparation) and between cells. */
export const OUTSIDE_CELLS = 'outside cells';
/** From a cell's start to its first phase event. */
export const CELL_OPENING = 'cell opening';
/** The step of the traffic watch's looks (evidence/serverEvidence.ts): one every ~0.5 s while YCSB runs. */
export const TRAFFIC_WATCH = 'traffic-watch';
/** The label the bench gives YCSB's own commands: their time is YCSB's, not the engine's. */
export const YCSB_COMMAND = 'YCSB command';

/** Length of the union of the intervals (parallel trips on several hosts count once). */
export function coveredMs(intervals: { startMs: number; endMs: number }[]): number {
  const sorted = [...intervals].sort((a, b) => a.startMs - b.startMs);
  let total = 0;
  let end = -Infinity;
  let start = -Infinity;
  for (const interval of sorted) {
    if (interval.startMs > end) {
      if (end > start) total += end - start;
      start = interval.startMs;
      end = interval.endMs;
    } else end = Math.max(end, interval.endMs);
  }
  if (end > start) total += end - start;
  return total;
}

export class CellLedger {
  private readonly trips: Trip[] = [];
  /** Wall time per phase, summed over cells. */
  private readonly wall = new Map<string, number>();
  private current = OUTSIDE_CELLS;
  private since = 0;
  private cells = 0;

  constructor(startMs: number) {
    this.since = startMs;
  }

  /** The phase a trip starting now belongs to. */
  phaseAt(): string {
    return this.current;
  }

  private enter(phase: string, nowMs: number): void {
    this.wall.set(this.current, (this.wall.get(this.current) ?? 0) + (nowMs - this.since));
    this.current = phase;
    this.since = nowMs;
  }

  cellStarted(nowMs: number): void {
    this.enter(CELL_OPENING, nowMs);
  }

  phase(name: string, nowMs: number): void {
    this.enter(name, nowMs);
  }

  cellFinished(nowMs: number): void {
    this.cells += 1;
    this.enter(OUTSIDE_CELLS, nowMs);
  }

  record(trip: Trip): void {
    this.trips.push(trip);
  }

  summary(nowMs: number): LedgerSummary {
    this.enter(this.current, nowMs);
    const cells = Math.max(1, this.cells);
    const order: string[] = [];
    for (const phase of [...this.wall.keys(), ...this.trips.map((trip) => trip.phase)])
      if (!order.includes(phase)) order.push(phase);
    const steps = order
      .filter((phase) => phase !== OUTSIDE_CELLS)
      .map((phase): StepFigures => {
        const trips = this.trips.filter((trip) => trip.phase === phase);
        const counts = new Map<string, number>();
        for (const trip of trips) counts.set(trip.label, (counts.get(trip.label) ?? 0) + 1);
        const busiest = [...counts]
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .slice(0, 3)
          .map(([label, count]) => `${label} ×${round(count / cells)}`);
        return {
          phase,
          wallMs: round((this.wall.get(phase) ?? 0) / cells, 0),
          sshTrips: round(trips.filter((trip) => trip.kind === 'ssh').length / cells),
          restCalls: round(trips.filter((trip) => trip.kind === 'rest').length / cells),
          waitingMs: round(coveredMs(trips) / cells, 0),
          ycsbMs: round(coveredMs(trips.filter((trip) => trip.label === YCSB_COMMAND)) / cells, 0),
          busiest,
        };
      });
    const inCells = this.trips.filter((trip) => trip.phase !== OUTSIDE_CELLS);
    return {
      cells: this.cells,
      steps,
      sshTripsPerCell: round(inCells.filter((trip) => trip.kind === 'ssh').length / cells),
      watchTripsPerCell: round(
        inCells.filter((trip) => trip.kind === 'ssh' && trip.label === TRAFFIC_WATCH).length / cells,
      ),
      restCallsPerCell: round(inCells.filter((trip) => trip.kind === 'rest').length / cells),
    };
  }
}

function round(value: number, digits = 1): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** The breakdown as `npm run bench` prints it: one line per step of a cell. */
export function formatLedger(summary: LedgerSummary): string[] {
  const lines = [
    `  per step of a cell (${summary.cells} cells): wall time; SSH commands and uploads; REST calls; time with a round trip open, of it YCSB's own commands; the most frequent trips`,
  ];
  for (const step of summary.steps) {
    lines.push(
      `    ${step.phase.padEnd(18)} ${String(step.wallMs).padStart(6)} ms  ssh ${String(step.sshTrips).padStart(4)}  rest ${String(step.restCalls).padStart(4)}  waiting ${String(step.waitingMs).padStart(6)} ms (YCSB ${String(step.ycsbMs).padStart(5)} ms)  ${step.busiest.join(', ')}`,
    );
  }
  lines.push(
    `  round trips per cell: ${summary.sshTripsPerCell} SSH (${round(summary.sshTripsPerCell - summary.watchTripsPerCell)} besides the traffic watch's ${summary.watchTripsPerCell} looks), ${summary.restCallsPerCell} REST`,
  );
  return lines;
}
