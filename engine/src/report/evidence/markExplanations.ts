// What each mark code means for a reader of the numbers: the legend of the panel and of the HTML
// report. The mark's own message (marks.ts, the engine file that set it) says what was seen in
// that cell; this says why it matters. An unknown code explains itself through its messages.
import { markLabel } from '../../evidence/marks';

const explanations: Record<string, string> = {
  'not-accelerated':
    "Couchbase was not verified to run on Onload in this Onload cell (memcached in no stack, or the run's KV connections kernel sockets although its listener is in one, e.g. clients through a non-Onload NIC): the numbers may be the kernel stack's. Never counted as an improvement.",
  'accelerated-kernel':
    'The kernel arm ran with Onload loaded: it is not a kernel baseline, so its comparisons prove nothing.',
  'acceleration-unverified':
    "Whether memcached and the run's traffic were on Onload could not be checked (onload_stackdump missing, refused by sudo, memcached not found, or no connection seen).",
  'memcached-unverified':
    'memcached was not found on the server after the start (by its binary, user and babysitter, nor by a KV listener): what it ran with is unknown and the arms could not be compared. Never read as alike.',
  'partly-accelerated':
    "Only some of the clients' KV connections were in memcached's Onload stack during the run (onload_stackdump), the others were kernel sockets (/proc/net/tcp): the numbers mix both stacks. Never counted as an improvement.",
  'client-cpu-unverified':
    'A YCSB client host sent no CPU readings during the run: whether it was client-bound could not be checked, so the cell is not read as clean.',
  'server-cpu-unverified': 'A server sent no CPU readings during the run: its CPU per operation is unknown.',
  'wrong-interface':
    'The traffic did not go through the interface the cell names (another NIC or loopback): it measures another path.',
  'arms-differ':
    "The kernel and Onload arms of this point differ in more than the network stack (settings, versions, bucket): the difference is not Onload's alone.",
  'environment-differs':
    "A host's environment changed during the run (kernel, versions, NIC firmware): repetitions may not be comparable.",
  'client-bound':
    "A YCSB client host ran above about 90 % CPU busy, or some of its YCSB JVM's threads ran at 90 % of one CPU or more over the measured window (/proc/PID/task/TID/stat; the mark names them): the numbers measure the client's limit, not Couchbase's. Add client hosts or threads per host.",
  'busy-polling':
    "memcached's Onload settings spin (EF_POLL_USEC or EF_SPIN_USEC with EF_*_SPIN on, or lock buzzing; read from its /proc/PID/environ): in these cells memcached's CPU and the server's CPU per operation count spinning while waiting, not only work, so they compare polling with the kernel arm's interrupts. A note on the CPU figures only: the cell stays in the medians and its latency and throughput compare as usual.",
  'interface-unverified':
    'No KV connection of the run was seen on the server (/proc/net/tcp, and onload_stackdump lots in Onload cells) while YCSB ran: which interface carried the traffic is not proven, so the cell is not read as clean.',
  'cpu-window-unverified':
    "The CPU figures of a host could not be aligned to YCSB's own run (no time-stamped status lines, no clock reading, or too few readings inside it): they cover the sampler's readings after the warm-up, idle seconds before YCSB started and after it ended included, so busy % and CPU per operation read low.",
  'warmup-too-short':
    'Throughput was still rising after the warm-up: the statistics include part of the ramp. Raise warmupSec in the plan.',
  'client-io-spinning':
    "The YCSB couchbase2 binding's SDK IO threads (cb-io-*) spin at about one CPU whatever the load when couchbase.boost > 0 (its default 3): their CPU was left out of the client-bound check. A note: the cell stays in the medians; whether those IO threads limited the client is not proven (set couchbase.boost=0 to have it checked).",
  'warmup-unverified':
    'Fewer than 4 whole YCSB status intervals followed the warm-up, so whether throughput was still rising could not be checked. A note: the cell stays in the medians; lengthen the run (or shorten status.interval) to have it checked.',
  'hdr-count-differs':
    "A client's HDR interval logs hold a different number of operations than its YCSB report (YCSB 0.17.0 can lose a logged interval when two threads create the same measurement at once; or the client wrote no logs): the merged percentiles cover only the logged operations, the counts stay YCSB's.",
};

export interface MarkLegendEntry {
  code: string;
  label: string;
  explanation: string;
}

export function markExplanation(code: string): string {
  return explanations[code] ?? "A reason to doubt this cell's numbers; see the message of each marked cell.";
}

/** One legend entry per code met, in the order given. */
export function markLegend(codes: Iterable<string>): MarkLegendEntry[] {
  return [...new Set(codes)].map((code) => ({ code, label: markLabel(code), explanation: markExplanation(code) }));
}
