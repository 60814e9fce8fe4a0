// Facts about a whole workload file that several features need: which workload class and which
// Couchbase binding it is written for, and which class package it uses.
import type { Binding, YcsbCatalog } from './catalog';
import type { PropertiesDocument } from './propertiesParser';

export type WorkloadKind =
  'CoreWorkload' | 'RestWorkload' | 'TimeSeriesWorkload' | 'ConstantOccupancyWorkload' | 'fork-custom' | 'other';

export interface WorkloadShape {
  /** undefined when no `workload` key is set. */
  readonly workload: WorkloadKind | undefined;
  /** The binding in use, from `db` or from binding-specific keys; undefined when unclear. */
  readonly binding: Binding | undefined;
  /** `site.ycsb` (0.17.0 on) or `com.yahoo.ycsb` (older and Couchbase's fork), from any class name. */
  readonly classPackage: 'site.ycsb' | 'com.yahoo.ycsb' | undefined;
}

const dbClassBindings: [RegExp, Binding][] = [
  [/couchbase3/i, 'couchbase3'],
  [/couchbase2/i, 'couchbase2'],
  [/\.CouchbaseClient$/, 'couchbase'],
  [/\.BasicDB$/, 'basic'],
];

export function workloadShape(document: PropertiesDocument, catalog: YcsbCatalog): WorkloadShape {
  const workloadClass = document.effective.get('workload')?.value.trim();
  const db = document.effective.get('db')?.value.trim();
  const classNames = [workloadClass, db, document.effective.get('exporter')?.value.trim()];
  const classPackage = classNames.some((name) => name?.startsWith('com.yahoo.ycsb.'))
    ? 'com.yahoo.ycsb'
    : classNames.some((name) => name?.startsWith('site.ycsb.'))
      ? 'site.ycsb'
      : undefined;
  return { workload: workloadKindOf(workloadClass), binding: bindingOf(document, catalog, db), classPackage };
}

function workloadKindOf(className: string | undefined): WorkloadKind | undefined {
  if (className === undefined) return undefined;
  const simple = className.slice(className.lastIndexOf('.') + 1);
  if (
    simple === 'CoreWorkload' ||
    simple === 'RestWorkload' ||
    simple === 'TimeSeriesWorkload' ||
    simple === 'ConstantOccupancyWorkload'
  ) {
    return simple;
  }
  if (simple.startsWith('Custom')) return 'fork-custom';
  return 'other';
}

/** The binding that reads the most of the file's binding keys; a tie leaves it open. */
function bindingOf(document: PropertiesDocument, catalog: YcsbCatalog, db: string | undefined): Binding | undefined {
  if (db) {
    for (const [pattern, binding] of dbClassBindings) if (pattern.test(db)) return binding;
  }
  const covered = new Map<Binding, number>();
  for (const key of document.effective.keys()) {
    const bindings = new Set(catalog.entries(key).map((entry) => entry.binding as Binding | undefined));
    for (const binding of bindings) if (binding !== undefined) covered.set(binding, (covered.get(binding) ?? 0) + 1);
  }
  const ranked = [...covered.entries()].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0 || (ranked.length > 1 && ranked[0]![1] === ranked[1]![1])) return undefined;
  return ranked[0]![0];
}
