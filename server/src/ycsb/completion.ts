// Completion of keys (grouped by the part of YCSB that reads them, only the binding in use) and of
// values (enumerations, booleans, class names in both packages), with defaults shown.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  type CompletionItem,
  CompletionItemKind,
  MarkupKind,
  type Position,
  type Range,
} from 'vscode-languageserver-types';
import { type CatalogProperty, componentLabel, componentRank, type YcsbCatalog } from './catalog';
import { propertyMarkdown } from './propertyDocs';
import { entryAt, type PropertiesDocument, type PropertyEntry } from './propertiesParser';
import { type WorkloadShape, workloadShape } from './workloadShape';

/** `db` classes named by the facts: what bin/ycsb sets for each Couchbase binding. */
const dbClasses = [
  'site.ycsb.db.couchbase2.Couchbase2Client',
  'site.ycsb.db.CouchbaseClient',
  'com.yahoo.ycsb.db.couchbase2.Couchbase2Client',
  'com.yahoo.ycsb.db.CouchbaseClient',
];

export function ycsbCompletion(
  text: TextDocument,
  document: PropertiesDocument,
  catalog: YcsbCatalog,
  position: Position,
): CompletionItem[] {
  const offset = text.offsetAt(position);
  if (document.comments.some((comment) => offset > comment.start && offset <= comment.end)) return [];
  const shape = workloadShape(document, catalog);
  const entry = entryAt(document, offset);
  if (!entry || offset <= entry.keyEnd) {
    const range = entry
      ? { start: text.positionAt(entry.keyStart), end: text.positionAt(entry.keyEnd) }
      : { start: position, end: position };
    return keyCompletions(document, catalog, shape, range, entry);
  }
  const range = { start: text.positionAt(entry.valueStart), end: text.positionAt(entry.valueEnd) };
  return valueCompletions(catalog, shape, entry, range);
}

function keyCompletions(
  document: PropertiesDocument,
  catalog: YcsbCatalog,
  shape: WorkloadShape,
  range: Range,
  current: PropertyEntry | undefined,
): CompletionItem[] {
  const items: CompletionItem[] = [];
  const addValue = !current?.hasSeparator && (current === undefined || current.valueStart >= current.valueEnd);
  for (const key of catalog.keys()) {
    if (document.effective.has(key) && key !== current?.key) continue;
    const entries = catalog.entries(key);
    const fits = entries.filter(
      (e) => e.binding === undefined || shape.binding === undefined || e.binding === shape.binding,
    );
    if (fits.length === 0) continue;
    const property = catalog.lookup(key, shape.binding)!;
    const group = componentLabel(property);
    const bindings = shape.binding ? [] : [...new Set(entries.map((e) => e.binding).filter((b) => b !== undefined))];
    items.push({
      label: key,
      kind: CompletionItemKind.Property,
      labelDetails: { description: bindings.length > 1 ? `${bindings.join(' / ')} binding` : group },
      detail: `${group}${property.forkOnly ? ' (fork only)' : ''} · default ${property.default ?? property.computedDefault ?? 'none'}`,
      documentation: { kind: MarkupKind.Markdown, value: propertyMarkdown(property) },
      sortText: `${componentRank(property)}-${property.forkOnly ? 1 : 0}-${key}`,
      filterText: key,
      textEdit: { range, newText: addValue ? `${key}=${property.default ?? ''}` : key },
    });
  }
  return items;
}

function valueCompletions(
  catalog: YcsbCatalog,
  shape: WorkloadShape,
  entry: PropertyEntry,
  range: Range,
): CompletionItem[] {
  const property = catalog.lookup(entry.key, shape.binding);
  if (!property) return [];
  const values = candidateValues(property, shape);
  return values.map((value, index) => {
    const isDefault = value === property.default;
    return {
      label: value,
      kind: property.type === 'class' ? CompletionItemKind.Class : CompletionItemKind.EnumMember,
      detail: isDefault ? `default ${entry.key}` : entry.key,
      labelDetails: isDefault ? { description: 'default' } : undefined,
      preselect: isDefault || undefined,
      sortText: `${isDefault ? 0 : 1}-${String(index).padStart(3, '0')}`,
      textEdit: { range, newText: value },
    };
  });
}

function candidateValues(property: CatalogProperty, shape: WorkloadShape): string[] {
  if (property.type === 'bool') return ['true', 'false'];
  if (property.key === 'db') return orderByPackage(dbClasses, shape);
  if (property.type === 'class') return orderByPackage(property.values ?? [], shape);
  if (property.type === 'enum' || property.type === 'list<enum>') {
    const byWorkload =
      property.valuesByWorkload && shape.workload ? property.valuesByWorkload[shape.workload] : undefined;
    return [...(byWorkload ?? property.values ?? [])];
  }
  return property.default !== null && property.default !== '' ? [property.default] : [];
}

/** Class names in the package the file already uses come first (site.ycsb when unknown). */
function orderByPackage(values: readonly string[], shape: WorkloadShape): string[] {
  const preferred = shape.classPackage ?? 'site.ycsb';
  return [...values].sort((a, b) => Number(!a.startsWith(preferred)) - Number(!b.startsWith(preferred)));
}
