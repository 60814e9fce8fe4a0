// The option relations of relations.json that a static check can decide from the effective
// configuration: incompatible pairs, options ignored unless another is set, consistency limits.
// A rule fires only when every value it depends on is certain (set unconditionally to a literal,
// or never set so the default applies); otherwise the profile depends on run-time facts. Values
// are read as libonload uses them (usedValue.ts).
import type { OnloadCatalog } from './catalog';
import type { EffectiveEntry } from './profileAnalysis';
import { numericValue, type IssueSeverity } from './values';
import { assignedValue } from './usedValue';

export interface RelationFinding {
  /** The relation id from relations.json, used as the diagnostic code. */
  code: string;
  severity: IssueSeverity;
  message: string;
  /** Options involved, the one to report on first. */
  options: string[];
}

type Reading =
  { known: true; explicit: boolean; value: bigint | undefined; text: string | undefined } | { known: false };

export function checkRelations(entries: Map<string, EffectiveEntry>, catalog: OnloadCatalog): RelationFinding[] {
  const findings: RelationFinding[] = [];
  const read = (name: string): Reading => {
    const entry = entries.get(name);
    const option = catalog.option(name);
    if (!entry) {
      const fallback = option?.default;
      return {
        known: true,
        explicit: false,
        value: typeof fallback === 'number' ? BigInt(fallback) : undefined,
        text: fallback === undefined ? undefined : String(fallback),
      };
    }
    if (!entry.certain || entry.winner.dynamic) return { known: false };
    // What libonload uses (usedValue.ts), not the text written: EF_TX_PUSH 2 is off.
    const used = assignedValue(option, name, entry.winner.value, false);
    const text = used.used?.value ?? used.exported;
    return { known: true, explicit: true, value: numericValue(option, text), text };
  };
  const isSet = (name: string) => entries.has(name);
  const number = (reading: Reading): bigint | undefined => (reading.known ? reading.value : undefined);
  const add = (code: string, severity: IssueSeverity, message: string, ...options: string[]) =>
    findings.push({ code, severity, message, options });

  // EF_UL_EPOLL=0 needs an interrupt-driven stack; polling implies EF_INT_DRIVEN=0.
  const ulEpoll = read('EF_UL_EPOLL');
  if (ulEpoll.known && ulEpoll.explicit && ulEpoll.value === 0n) {
    const intDriven = read('EF_INT_DRIVEN');
    const poll = number(read('EF_POLL_USEC'));
    const spin = number(read('EF_SPIN_USEC'));
    if (intDriven.known && intDriven.explicit && intDriven.value === 0n) {
      add(
        'ul-epoll0-int-driven0',
        'error',
        'EF_UL_EPOLL=0 is not compatible with EF_INT_DRIVEN=0: libonload reports the combination; set EF_INT_DRIVEN 1.',
        'EF_UL_EPOLL',
        'EF_INT_DRIVEN',
      );
    } else if (intDriven.known && !intDriven.explicit && ((poll ?? 0n) !== 0n || (spin ?? 0n) !== 0n)) {
      add(
        'ul-epoll0-int-driven0',
        'error',
        'EF_UL_EPOLL=0 is not compatible with polling: a non-zero EF_POLL_USEC/EF_SPIN_USEC makes EF_INT_DRIVEN default to 0; set EF_INT_DRIVEN 1.',
        'EF_UL_EPOLL',
        'EF_POLL_USEC',
        'EF_SPIN_USEC',
      );
    }
  }

  const ignoredUnless = (
    code: string,
    subject: string,
    switchName: string,
    off: (value: bigint | undefined) => boolean,
    why: string,
    severity: IssueSeverity = 'warning',
  ) => {
    if (!isSet(subject)) return;
    const toggle = read(switchName);
    if (toggle.known && off(toggle.value))
      add(code, severity, `${subject} has no effect: ${why}.`, subject, switchName);
  };
  ignoredUnless(
    'tx-push-threshold',
    'EF_TX_PUSH_THRESHOLD',
    'EF_TX_PUSH',
    (value) => value === 0n,
    'it is only read when EF_TX_PUSH is on',
  );
  ignoredUnless(
    'pio-threshold',
    'EF_PIO_THRESHOLD',
    'EF_PIO',
    (value) => value === 0n,
    'EF_PIO=0 forces the PIO threshold to 0',
  );
  ignoredUnless(
    'rx-log-flags',
    'EF_TCP_RX_LOG_FLAGS',
    'EF_TCP_RX_CHECKS',
    (value) => value === 0n,
    'it is only read when EF_TCP_RX_CHECKS is set',
  );
  ignoredUnless(
    'shared-ports-no-fallback',
    'EF_TCP_SHARED_LOCAL_PORTS_NO_FALLBACK',
    'EF_TCP_SHARED_LOCAL_PORTS',
    (value) => value === 0n,
    'it only matters when EF_TCP_SHARED_LOCAL_PORTS > 0',
  );
  ignoredUnless(
    'log-file-needs-no-ioctl',
    'EF_LOG_FILE',
    'EF_LOG_VIA_IOCTL',
    (value) => value !== undefined && value !== 0n,
    'the log goes through the driver while EF_LOG_VIA_IOCTL is on',
  );
  ignoredUnless(
    'prealloc-min-free',
    'EF_MIN_FREE_PACKETS',
    'EF_PREALLOC_PACKETS',
    (value) => value === 1n,
    'with EF_PREALLOC_PACKETS=1 every buffer is allocated up front',
    'info',
  );

  const hugePages = read('EF_USE_HUGE_PAGES');
  const shareWith = read('EF_SHARE_WITH');
  if (
    hugePages.known &&
    hugePages.explicit &&
    (hugePages.value ?? 0n) !== 0n &&
    shareWith.known &&
    (shareWith.value ?? 0n) !== 0n
  ) {
    add(
      'huge-pages-share-with',
      'warning',
      'EF_USE_HUGE_PAGES is forced to 0 because EF_SHARE_WITH is non-zero.',
      'EF_USE_HUGE_PAGES',
      'EF_SHARE_WITH',
    );
  }

  // Packet limits.
  const maxPackets = read('EF_MAX_PACKETS');
  if (maxPackets.known && maxPackets.explicit && maxPackets.value !== undefined) {
    for (const part of ['EF_MAX_RX_PACKETS', 'EF_MAX_TX_PACKETS']) {
      const reading = read(part);
      if (reading.known && reading.explicit && reading.value !== undefined && reading.value > maxPackets.value) {
        add(
          'max-packets',
          'warning',
          `${part} (${reading.value}) is above EF_MAX_PACKETS (${maxPackets.value}) and is cut to it.`,
          part,
          'EF_MAX_PACKETS',
        );
      }
    }
    if (maxPackets.value > 0n && maxPackets.value % 1024n !== 0n) {
      add(
        'max-packets',
        'info',
        `EF_MAX_PACKETS is rounded up to a multiple of 1024 (${roundUp(maxPackets.value, 1024n)}).`,
        'EF_MAX_PACKETS',
      );
    }
  }
  const endpoints = read('EF_MAX_ENDPOINTS');
  if (
    endpoints.known &&
    endpoints.explicit &&
    endpoints.value !== undefined &&
    endpoints.value > 0n &&
    endpoints.value % 2048n !== 0n
  ) {
    add(
      'max-endpoints-rounding',
      'info',
      `EF_MAX_ENDPOINTS is rounded up to a multiple of 2048 (${roundUp(endpoints.value, 2048n)}).`,
      'EF_MAX_ENDPOINTS',
    );
  }
  const synrecv = read('EF_TCP_SYNRECV_MAX');
  if (
    (isSet('EF_TCP_SYNRECV_MAX') || isSet('EF_MAX_ENDPOINTS')) &&
    synrecv.known &&
    endpoints.known &&
    synrecv.value !== undefined &&
    endpoints.value !== undefined
  ) {
    if (synrecv.value * 4n > endpoints.value * 7n) {
      const severity = synrecv.value * 2n > endpoints.value * 7n ? 'error' : 'warning';
      add(
        'synrecv-endpoints',
        severity,
        `EF_TCP_SYNRECV_MAX (${synrecv.value}) is too large for EF_MAX_ENDPOINTS (${endpoints.value}): keep SYNRECV_MAX*4 <= MAX_ENDPOINTS*7.`,
        'EF_TCP_SYNRECV_MAX',
        'EF_MAX_ENDPOINTS',
      );
    }
  }
  const rxqSize = read('EF_RXQ_SIZE');
  if (
    rxqSize.known &&
    rxqSize.explicit &&
    rxqSize.value !== undefined &&
    rxqSize.value !== -1n &&
    (rxqSize.value <= 0n || (rxqSize.value & (rxqSize.value - 1n)) !== 0n)
  ) {
    add(
      'rxq-size-pow2',
      'warning',
      `EF_RXQ_SIZE must be a power of two (or -1 for the adapter's default), not ${rxqSize.value}.`,
      'EF_RXQ_SIZE',
    );
  }

  // Loopback acceleration needs both sides.
  const client = read('EF_TCP_CLIENT_LOOPBACK');
  const server = read('EF_TCP_SERVER_LOOPBACK');
  if (client.known && client.explicit && server.known && client.value !== undefined && server.value !== undefined) {
    if ((client.value === 1n || client.value === 3n) && server.value === 0n) {
      add(
        'tcp-loopback-pair',
        'warning',
        `EF_TCP_CLIENT_LOOPBACK=${client.value} needs EF_TCP_SERVER_LOOPBACK set (non-zero); otherwise client loopback acceleration is off.`,
        'EF_TCP_CLIENT_LOOPBACK',
        'EF_TCP_SERVER_LOOPBACK',
      );
    } else if ((client.value === 2n || client.value === 4n) && server.value !== 2n) {
      add(
        'tcp-loopback-pair',
        'warning',
        `EF_TCP_CLIENT_LOOPBACK=${client.value} needs EF_TCP_SERVER_LOOPBACK=2.`,
        'EF_TCP_CLIENT_LOOPBACK',
        'EF_TCP_SERVER_LOOPBACK',
      );
    }
  }

  // Scalable filters: the dependent options need a mode from EF_SCALABLE_FILTERS.
  const filters = read('EF_SCALABLE_FILTERS');
  const filtersOff = filters.known && (filters.text === undefined || filters.text.trim() === '');
  for (const dependent of [
    'EF_SCALABLE_FILTERS_ENABLE',
    'EF_SCALABLE_LISTEN_MODE',
    'EF_SCALABLE_ACTIVE_WILDS_NEED_FILTER',
  ]) {
    if (isSet(dependent) && filtersOff) {
      add(
        'scalable-filters-dependents',
        'warning',
        `${dependent} is ignored (with a warning) unless EF_SCALABLE_FILTERS names an interface and mode.`,
        dependent,
        'EF_SCALABLE_FILTERS',
      );
    }
  }
  const stackName = read('EF_NAME');
  if (
    stackName.known &&
    stackName.explicit &&
    (stackName.text ?? '') !== '' &&
    filters.known &&
    /[=:]rss\b/.test(filters.text ?? '')
  ) {
    add(
      'ef-name-rss',
      'warning',
      'EF_NAME is rejected (with a warning) when EF_SCALABLE_FILTERS uses an rss mode: clustered stacks are named by EF_CLUSTER_NAME.',
      'EF_NAME',
      'EF_SCALABLE_FILTERS',
    );
  }

  // UDP handover ranges work in MIN/MAX pairs.
  for (const prefix of ['EF_UDP_PORT_HANDOVER', 'EF_UDP_PORT_HANDOVER2', 'EF_UDP_PORT_HANDOVER3']) {
    const min = `${prefix}_MIN`;
    const max = `${prefix}_MAX`;
    if (isSet(min) !== isSet(max)) {
      const [given, missing] = isSet(min) ? [min, max] : [max, min];
      add(
        'udp-handover-pairs',
        'warning',
        `${given} is set without ${missing}: the defaults (MIN 2 > MAX 1) leave the range empty.`,
        given,
        missing,
      );
    }
  }

  const ctThreshold = read('EF_CTPIO_MODE');
  if (isSet('EF_CTPIO_CT_THRESH') && ctThreshold.known && (ctThreshold.text ?? '').toLowerCase() !== 'ct') {
    add(
      'ctpio-ct-thresh',
      'info',
      'EF_CTPIO_CT_THRESH only matters with EF_CTPIO_MODE=ct.',
      'EF_CTPIO_CT_THRESH',
      'EF_CTPIO_MODE',
    );
  }
  const mcastSend = entries.get('EF_MCAST_SEND');
  if (isSet('EF_MULTICAST_LOOP_OFF') && mcastSend?.certain) {
    add(
      'deprecated-multicast-loop-off',
      'warning',
      'EF_MULTICAST_LOOP_OFF is ignored because EF_MCAST_SEND is set.',
      'EF_MULTICAST_LOOP_OFF',
      'EF_MCAST_SEND',
    );
  }
  return findings;
}

function roundUp(value: bigint, step: bigint): bigint {
  return ((value + step - 1n) / step) * step;
}
