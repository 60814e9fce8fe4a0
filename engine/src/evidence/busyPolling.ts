// Whether memcached busy-polls under its Onload settings: a spinning thread burns
// CPU while it waits, so its "CPU per operation" compares polling with the kernel arm's
// interrupts, and the tables' legend must say so. What spins, from Onload's option facts
// (../shared/onload/relations.json `poll-usec-implies`, `spin-usec-int-driven`; netif_init.c,
// startup.c): the spin timeout is EF_SPIN_USEC when set, else EF_POLL_USEC; EF_POLL_USEC != 0 turns
// on EF_{SELECT,POLL,EPOLL,UDP_RECV,UDP_SEND,TCP_RECV,TCP_SEND,PKT_WAIT}_SPIN and the lock buzzing
// (EF_SOCK_LOCK_BUZZ, EF_STACK_LOCK_BUZZ, for EF_BUZZ_USEC = min(EF_POLL_USEC, 100)) unless set
// explicitly; EF_TCP_ACCEPT_SPIN, EF_TCP_CONNECT_SPIN and the pipe ones only when set. EF_INT_DRIVEN=0
// alone spins nothing: it only leaves the stack to be polled by the calls the application makes.
// -1 means the maximum (spin forever). Pure.

const impliedByPoll = [
  'EF_SELECT_SPIN',
  'EF_POLL_SPIN',
  'EF_EPOLL_SPIN',
  'EF_UDP_RECV_SPIN',
  'EF_UDP_SEND_SPIN',
  'EF_TCP_RECV_SPIN',
  'EF_TCP_SEND_SPIN',
  'EF_PKT_WAIT_SPIN',
];
const onlyExplicit = [
  'EF_TCP_ACCEPT_SPIN',
  'EF_TCP_CONNECT_SPIN',
  'EF_PIPE_RECV_SPIN',
  'EF_PIPE_SEND_SPIN',
  'EF_SO_BUSY_POLL_SPIN',
];
const lockBuzz = ['EF_SOCK_LOCK_BUZZ', 'EF_STACK_LOCK_BUZZ'];

export interface BusyPolling {
  /** The options that make it spin, as `NAME=value` (the explicit ones) or `NAME (implied by EF_POLL_USEC)`. */
  spinning: string[];
  /** The spin timeout in µs (-1: forever). */
  spinUsec: number;
}

function integer(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*-?\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/** The spinning under `settings` (EF_* name -> value); undefined when nothing spins. */
export function busyPolling(settings: Record<string, string>): BusyPolling | undefined {
  const poll = integer(settings.EF_POLL_USEC) ?? 0;
  const spinUsec = integer(settings.EF_SPIN_USEC) ?? poll;
  const buzzUsec = integer(settings.EF_BUZZ_USEC) ?? (poll !== 0 ? Math.min(poll < 0 ? 100 : poll, 100) : 0);
  const flag = (name: string, implied: boolean): string | undefined => {
    const explicit = integer(settings[name]);
    if (explicit !== undefined) return explicit !== 0 ? `${name}=${settings[name].trim()}` : undefined;
    return implied && poll !== 0 ? `${name} (implied by EF_POLL_USEC)` : undefined;
  };
  const spinning: string[] = [];
  if (spinUsec !== 0)
    spinning.push(
      ...[...impliedByPoll.map((name) => flag(name, true)), ...onlyExplicit.map((name) => flag(name, false))].filter(
        (entry): entry is string => entry !== undefined,
      ),
    );
  if (buzzUsec !== 0)
    spinning.push(...lockBuzz.map((name) => flag(name, true)).filter((entry): entry is string => entry !== undefined));
  if (spinning.length === 0) return undefined;
  const timeout =
    settings.EF_SPIN_USEC !== undefined && integer(settings.EF_SPIN_USEC) !== undefined
      ? `EF_SPIN_USEC=${settings.EF_SPIN_USEC.trim()}`
      : `EF_POLL_USEC=${String(settings.EF_POLL_USEC ?? '0').trim()}`;
  return { spinning: [timeout, ...spinning], spinUsec };
}

/** The mark's words: what spins, for how long, read from where. */
export function busyPollingMessage(polling: BusyPolling, source: string): string {
  const how = polling.spinUsec < 0 ? 'spinning without a time limit' : `spinning up to ${polling.spinUsec} µs per wait`;
  return `memcached busy-polls (${how}; ${polling.spinning.join(', ')}; from ${source}): its CPU and the server's CPU per operation count the spinning, not only the work, so they compare polling with the kernel arm's interrupts.`;
}
