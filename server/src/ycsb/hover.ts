// Hover on a key or value: the catalog's facts and, on proportion keys, the normalised mix.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { type Hover, MarkupKind, type Position } from 'vscode-languageserver-types';
import type { YcsbCatalog } from './catalog';
import { formatMix, operationMix, proportionKeys } from './operationMix';
import { propertyMarkdown } from './propertyDocs';
import { entryAt, type PropertiesDocument } from './propertiesParser';
import { workloadShape } from './workloadShape';

export function ycsbHover(
  text: TextDocument,
  document: PropertiesDocument,
  catalog: YcsbCatalog,
  position: Position,
): Hover | null {
  const offset = text.offsetAt(position);
  const entry = entryAt(document, offset);
  if (!entry) return null;
  const onKey = offset <= entry.keyEnd;
  if (!onKey && offset < entry.valueStart) return null;
  const range = onKey
    ? { start: text.positionAt(entry.keyStart), end: text.positionAt(entry.keyEnd) }
    : { start: text.positionAt(entry.valueStart), end: text.positionAt(entry.valueEnd) };
  const shape = workloadShape(document, catalog);
  const property = catalog.lookup(entry.key, shape.binding);
  const parts: string[] = [];
  if (property) {
    parts.push(propertyMarkdown(property));
  } else {
    parts.push(`**${entry.key}** · not a YCSB property: YCSB ignores it.`);
  }
  if (proportionKeys(shape.workload).some(([, key]) => key === entry.key)) {
    parts.push(`Operation mix: ${formatMix(operationMix(document, catalog, shape.workload))}`);
  }
  if (document.effective.get(entry.key) !== entry) parts.push('*Overridden by a later line: YCSB ignores this one.*');
  return { contents: { kind: MarkupKind.Markdown, value: parts.join('\n\n---\n\n') }, range };
}
