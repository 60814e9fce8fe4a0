// What a CPU table's numbers are, under the table: where they come from and
// over which window, and, when some of its cells busy-poll, that CPU per operation then counts
// spinning. The text report, the HTML report and the panel print these lines. Pure.

/** The part of a report table (report.ts ReportTable) the notes read; structural, so report.ts can import this file. */
export interface NotedTable {
  metric: { id: string };
  groups: readonly { rows: readonly { cells: readonly { stack: string; marks: readonly { code: string }[] }[] }[] }[];
}

const cpuMetricIds = new Set([
  'server-cpu',
  'client-cpu',
  'server-cpu-per-op',
  'memcached-cpu-per-op',
  'ops-per-busy-core',
]);

/** The legend lines of one table; none for a table that is not a CPU one. */
export function cpuTableNotes(table: NotedTable): string[] {
  if (!cpuMetricIds.has(table.metric.id)) return [];
  const polling = busyPollingNote(table);
  return [
    'CPU: /proc/stat and /proc/PID/stat (memcached, the YCSB JVM) read every second, over YCSB\'s own run from its status lines with the warm-up left out from its start; a cell marked "CPU window unaligned" covers the sampler\'s readings instead.',
    ...(polling ? [polling] : []),
  ];
}

/**
 * When some cells of a CPU table busy-poll: that their CPU per operation counts spinning (the panel's CPU charts show
 * this line).
 */
export function busyPollingNote(table: NotedTable): string | undefined {
  if (!cpuMetricIds.has(table.metric.id)) return undefined;
  const polling = new Set<string>();
  for (const group of table.groups)
    for (const row of group.rows)
      for (const cell of row.cells)
        if (cell.marks.some((mark) => mark.code === 'busy-polling')) polling.add(cell.stack);
  if (polling.size === 0) return undefined;
  return `Busy-polling (${[...polling].join(', ')}): memcached spins while it waits (EF_POLL_USEC / EF_SPIN_USEC with EF_*_SPIN), so its CPU and the CPU per operation count spinning, not only work: against the kernel arm they compare polling with interrupts.`;
}
