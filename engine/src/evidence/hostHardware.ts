// What a reviewer asks first about a latency result: the CPU (model, sockets, cores, threads), the
// NUMA nodes, the frequency governor, and for each tested NIC its NUMA node and where its
// interrupts are allowed to run. Read from Linux's sysfs/procfs (topology in
// /sys/devices/system/cpu/cpuN/topology, /sys/class/net/DEV/device/{numa_node,msi_irqs},
// /proc/irq/N/smp_affinity_list, names from /proc/interrupts); every line is best effort, so a
// missing file leaves a field empty instead of failing the run. Pure script text and parser.
import type { HostEnvironment } from '../model';

export type CpuFacts = NonNullable<HostEnvironment['cpu']>;
export type InterfaceFacts = NonNullable<HostEnvironment['interfaces']>[string];

/** Lines of the facts script about the host's CPUs. */
export function cpuFactsLines(): string[] {
  const cpu = '/sys/devices/system/cpu';
  return [
    // x86 names the model in /proc/cpuinfo; other architectures through lscpu
    `m=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1); [ -n "$m" ] || m=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1); echo "@cpu-model $m"`,
    'echo "@cpu-threads $(getconf _NPROCESSORS_ONLN 2>/dev/null)"',
    `echo "@cpu-cores $(cat ${cpu}/cpu[0-9]*/topology/thread_siblings_list 2>/dev/null | sort -u | wc -l)"`,
    `echo "@cpu-sockets $(cat ${cpu}/cpu[0-9]*/topology/physical_package_id 2>/dev/null | sort -u | wc -l)"`,
    'echo "@numa-nodes $(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)"',
    // one line per governor in use, with how many CPUs use it
    `cat ${cpu}/cpu[0-9]*/cpufreq/scaling_governor 2>/dev/null | sort | uniq -c | while read n g; do echo "@cpu-governor $g $n"; done`,
  ];
}

/** Lines about the NIC `$dev` that carries `tag` (an address); `$dev` is set by the caller. */
export function nicFactsLines(tag: string): string[] {
  return [
    `if [ -n "$dev" ]; then echo "@iface-numa ${tag} $(cat /sys/class/net/"$dev"/device/numa_node 2>/dev/null)"; fi`,
    // the NIC function's MSI interrupts (its queues and events), at most 256
    `if [ -n "$dev" ]; then for irq in $(ls /sys/class/net/"$dev"/device/msi_irqs 2>/dev/null | sort -n | head -n 256); do echo "@iface-irq ${tag} $irq $(cat /proc/irq/$irq/smp_affinity_list 2>/dev/null) $(awk -v i="$irq:" '$1 == i { print $NF }' /proc/interrupts 2>/dev/null)"; done; fi`,
  ];
}

const positive = (value: string): number | undefined => {
  const number = Number(value);
  return value !== '' && Number.isInteger(number) && number > 0 ? number : undefined;
};

/** Applies one `@tag value` line; false when the tag is not a hardware fact. */
export function readHardwareFact(environment: HostEnvironment, tag: string, value: string): boolean {
  const cpu = (): CpuFacts => (environment.cpu ??= {});
  const nic = (): { entry: InterfaceFacts; rest: string } => {
    const space = value.indexOf(' ');
    const address = space < 0 ? value : value.slice(0, space);
    environment.interfaces ??= {};
    return { entry: (environment.interfaces[address] ??= {}), rest: space < 0 ? '' : value.slice(space + 1).trim() };
  };
  switch (tag) {
    case 'cpu-model':
      if (value !== '') cpu().model = value.replace(/\s+/g, ' ');
      return true;
    case 'cpu-threads':
    case 'cpu-cores':
    case 'cpu-sockets':
    case 'numa-nodes': {
      const number = positive(value);
      if (number !== undefined)
        cpu()[
          (
            {
              'cpu-threads': 'threads',
              'cpu-cores': 'cores',
              'cpu-sockets': 'sockets',
              'numa-nodes': 'numaNodes',
            } as const
          )[tag]
        ] = number;
      return true;
    }
    case 'cpu-governor': {
      const [governor, count] = value.split(/\s+/);
      if (governor) (cpu().governors ??= {})[governor] = positive(count ?? '') ?? 1;
      return true;
    }
    case 'iface-numa': {
      const { entry, rest } = nic();
      // -1: the platform does not tie the device to a node
      if (/^-?\d+$/.test(rest)) entry.numaNode = Number(rest);
      return true;
    }
    case 'iface-irq': {
      const { entry, rest } = nic();
      const [irq, cpus, name] = rest.split(/\s+/);
      if (positive(irq ?? '') !== undefined)
        (entry.irqs ??= []).push({ irq: Number(irq), cpus: cpus ?? '', ...(name ? { name } : {}) });
      return true;
    }
    default:
      return false;
  }
}

/** Label/value lines for the panel's environment section and the text report. */
export function hardwareFactsText(environment: HostEnvironment): { label: string; value: string }[] {
  const facts: { label: string; value: string }[] = [];
  const cpu = environment.cpu;
  if (cpu) {
    const counts = [
      cpu.sockets !== undefined && `${cpu.sockets} ${cpu.sockets === 1 ? 'socket' : 'sockets'}`,
      cpu.cores !== undefined && `${cpu.cores} ${cpu.cores === 1 ? 'core' : 'cores'}`,
      cpu.threads !== undefined && `${cpu.threads} ${cpu.threads === 1 ? 'thread' : 'threads'}`,
    ].filter(Boolean);
    if (cpu.model || counts.length > 0)
      facts.push({ label: 'CPU', value: [cpu.model, counts.join(', ')].filter(Boolean).join(': ') });
    if (cpu.numaNodes !== undefined) facts.push({ label: 'NUMA nodes', value: String(cpu.numaNodes) });
    const governors = Object.entries(cpu.governors ?? {});
    if (governors.length === 1)
      facts.push({ label: 'Frequency governor', value: `${governors[0][0]} (all ${governors[0][1]} CPUs)` });
    else if (governors.length > 1)
      facts.push({
        label: 'Frequency governor',
        value: governors.map(([name, count]) => `${name} on ${count} CPUs`).join(', '),
      });
  }
  for (const [address, nic] of Object.entries(environment.interfaces ?? {})) {
    if (nic.numaNode !== undefined)
      facts.push({
        label: `NUMA node of ${address}`,
        value: nic.numaNode < 0 ? 'none (the platform reports -1)' : String(nic.numaNode),
      });
    if (nic.irqs && nic.irqs.length > 0) facts.push({ label: `IRQ affinity of ${address}`, value: irqText(nic.irqs) });
  }
  return facts;
}

/** "8 IRQs: 24→0, 25→1, …" or, when all share one CPU list, "8 IRQs, all on CPUs 0-63". */
export function irqText(irqs: readonly { irq: number; cpus: string }[]): string {
  const count = `${irqs.length} ${irqs.length === 1 ? 'IRQ' : 'IRQs'}`;
  const lists = new Set(irqs.map((irq) => irq.cpus));
  if (lists.size === 1) return `${count}, all on CPUs ${irqs[0].cpus || 'unknown'}`;
  const shown = irqs
    .slice(0, 16)
    .map((irq) => `${irq.irq}→${irq.cpus || '?'}`)
    .join(', ');
  return `${count} (IRQ→CPUs): ${shown}${irqs.length > 16 ? `, … ${irqs.length - 16} more` : ''}`;
}
