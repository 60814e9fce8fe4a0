// Synthetic inputs for the language benchmarks: an Onload profile of N lines and the equivalent
// YAML document (one single-key mapping per `onload_set`), so both validators see the same facts.

/** Real options with values a lab would use; every tenth line is a comment, some lines are wrong. */
const settings: [string, string][] = [
  ['EF_POLL_USEC', '100000'],
  ['EF_SPIN_USEC', '100000'],
  ['EF_INT_DRIVEN', '0'],
  ['EF_TCP_FASTSTART_INIT', '0'],
  ['EF_TCP_FASTSTART_IDLE', '0'],
  ['EF_EPOLL_SPIN', '1'],
  ['EF_SLEEP_SPIN_USEC', '50'],
  ['EF_MAX_ENDPOINTS', '8192'],
  ['EF_PREFAULT_PACKETS', '10000'],
  ['EF_TCP_RCVBUF', '1048576'],
  ['EF_TCP_SNDBUF', '1048576'],
  ['EF_CLUSTER_SIZE', '4'],
  ['EF_CLUSTER_NAME', 'couchbase'],
  ['EF_CLUSTER_RESTART', '1'],
  ['EF_SCALABLE_FILTERS_ENABLE', '1'],
  ['EF_PACKET_BUFFER_MODE', '0'],
  ['EF_CTPIO', '1'],
  ['EF_HIGH_THROUGHPUT_MODE', '1'],
  ['EF_TCP_ACCEPT_SPIN', '1'],
  ['EF_NAME', 'cb'],
  ['EF_POLL_USEC', '999999999999'], // out of range
  ['EF_TCP_NODELAY_FORCE', 'maybe'], // not a number
  ['EF_SPIN_USECS', '1000'], // unknown: did you mean EF_SPIN_USEC?
];

/** Worst case: every option line repeats an earlier one, so nearly every line gets a diagnostic. */
export function onloadProfile(lines: number): string {
  const out: string[] = ['# synthetic benchmark profile'];
  for (let i = 1; i < lines; i++) {
    if (i % 10 === 0) out.push(`# section ${i}`);
    else {
      const [name, value] = settings[i % settings.length];
      out.push(`onload_set ${name} ${value}`);
    }
  }
  return out.join('\n') + '\n';
}

export function equivalentYaml(lines: number): string {
  const out: string[] = ['# synthetic benchmark profile'];
  for (let i = 1; i < lines; i++) {
    if (i % 10 === 0) out.push(`# section ${i}`);
    else {
      const [name, value] = settings[i % settings.length];
      out.push(`- ${name}: ${/^\d+$/.test(value) ? value : JSON.stringify(value)}`);
    }
  }
  return out.join('\n') + '\n';
}

/**
 * A large profile shaped like real ones: one `case` arm per application, each setting its own
 * options (conditional, so repeats across arms are not findings), with comments and shell logic
 * between them, and a mistake now and then.
 */
export function typicalOnloadProfile(lines: number): string {
  const out: string[] = [
    '# synthetic benchmark profile: one arm per application',
    'app=${ONLOAD_APP:-default}',
    'case "$app" in',
  ];
  for (let arm = 0; out.length < lines - 30; arm++) {
    out.push(`  app${arm})`, `    # tuning for application ${arm}`);
    for (let i = 0; i < settings.length - 3; i++) {
      const [name, value] = settings[(i + arm) % (settings.length - 3)];
      out.push(`    onload_set ${name} ${value}`);
    }
    if (arm % 25 === 0) out.push('    onload_set EF_SPIN_USECS 1000');
    out.push('    if [ -n "$ONLOAD_DEBUG" ]; then', '      onload_set EF_NO_FAIL 0', '    fi', '    ;;');
  }
  while (out.length < lines - 1) out.push('# end of the application arms');
  out.push('esac');
  return out.join('\n') + '\n';
}
