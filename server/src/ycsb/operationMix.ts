// The run phase's operation mix as YCSB really draws it: every proportion key (set or defaulted)
// with a weight > 0, divided by the sum of those weights.
import type { YcsbCatalog } from './catalog';
import { parseJavaDouble } from './javaValues';
import type { PropertiesDocument } from './propertiesParser';
import type { WorkloadKind } from './workloadShape';

export interface MixOperation {
  readonly name: string;
  readonly key: string;
  readonly weight: number;
  /** Share of all operations in [0, 1]; 0 for weights YCSB ignores (<= 0 or unparsable). */
  readonly share: number;
}

export interface OperationMix {
  readonly operations: readonly MixOperation[];
  /** Sum of the positive weights. */
  readonly total: number;
}

const coreOperations: [string, string][] = [
  ['read', 'readproportion'],
  ['update', 'updateproportion'],
  ['insert', 'insertproportion'],
  ['scan', 'scanproportion'],
  ['read-modify-write', 'readmodifywriteproportion'],
];

/** Proportion keys that take part in the mix for a workload class. */
export function proportionKeys(workload: WorkloadKind | undefined): [string, string][] {
  if (workload === 'RestWorkload') return [...coreOperations.slice(0, 3), ['delete', 'deleteproportion']];
  if (workload === 'fork-custom') return [...coreOperations, ['transaction', 'transactionproportion']];
  return coreOperations;
}

export function operationMix(
  document: PropertiesDocument,
  catalog: YcsbCatalog,
  workload: WorkloadKind | undefined,
): OperationMix {
  const weights = proportionKeys(workload).map(([name, key]) => {
    const text = document.effective.get(key)?.value ?? catalog.lookup(key)?.default ?? '0';
    const parsed = parseJavaDouble(text);
    return { name, key, weight: parsed.ok && Number.isFinite(parsed.value) ? parsed.value : 0 };
  });
  const total = weights.reduce((sum, operation) => sum + (operation.weight > 0 ? operation.weight : 0), 0);
  const operations = weights.map((operation) => ({
    ...operation,
    share: total > 0 && operation.weight > 0 ? operation.weight / total : 0,
  }));
  return { operations, total };
}

/** `read 50% · update 50%`: the operations YCSB will issue, largest share first. */
export function formatMix(mix: OperationMix): string {
  const used = mix.operations.filter((operation) => operation.share > 0).sort((a, b) => b.share - a.share);
  if (used.length === 0) return 'no operations (every proportion is 0)';
  return used.map((operation) => `${operation.name} ${formatPercent(operation.share)}`).join(' · ');
}

function formatPercent(share: number): string {
  const percent = Math.round(share * 1000) / 10;
  return `${Number.isInteger(percent) ? percent.toFixed(0) : percent.toFixed(1)}%`;
}
