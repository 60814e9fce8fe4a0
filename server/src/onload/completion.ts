// Completion in a profile: directives at the start of a command, option names after onload_set,
// values after an option name, profile names after onload_import.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CompletionItemKind,
  CompletionItemTag,
  InsertTextFormat,
  MarkupKind,
  type CompletionItem,
  type Position,
  type Range,
} from 'vscode-languageserver-types';
import type { CompletionOptions } from '../common/languageFeatures';
import type { OnloadCatalog } from './catalog';
import { lexicalContextAt } from './lexicalContext';
import { valueMeaning } from './valueMeanings';
import type { OptionInfo } from './catalogTypes';
import { optionDetail, optionMarkdown } from './optionFacts';

// `plain` is what a client without snippets inserts: the word and a space, so the next completion
// (option names after `onload_set `) follows, and nothing the user would have to delete.
const directives: { label: string; detail: string; documentation: string; snippet: string; plain: string }[] = [
  {
    label: 'onload_set',
    detail: 'onload_set NAME VALUE',
    documentation: 'Exports NAME=VALUE unless NAME is already set: the first assignment wins.',
    snippet: 'onload_set ${1:EF_}',
    plain: 'onload_set ',
  },
  {
    label: 'onload_import',
    detail: 'onload_import PROFILE [ARGS...]',
    documentation:
      'Sources another profile (one beside this file, in onloadBench.profilePath, or one Onload ships) at this point.',
    snippet: 'onload_import ${1:latency}',
    plain: 'onload_import ',
  },
  {
    label: 'log',
    detail: 'log MESSAGE',
    documentation: 'Prints MESSAGE to stderr with an "onload:" prefix.',
    snippet: 'log "${1}"',
    plain: 'log ',
  },
  {
    label: 'vlog',
    detail: 'vlog MESSAGE',
    documentation: 'Like log, but only with onload -v.',
    snippet: 'vlog "${1}"',
    plain: 'vlog ',
  },
  {
    label: 'err',
    detail: 'err MESSAGE',
    documentation: 'Prints MESSAGE to stderr as is.',
    snippet: 'err "${1}"',
    plain: 'err ',
  },
  {
    label: 'fail',
    detail: 'fail MESSAGE',
    documentation: 'Logs MESSAGE and stops the launcher (exit 1): the application is not started.',
    snippet: 'fail "${1}"',
    plain: 'fail ',
  },
];

/** Only the end of a very long line matters for completion. */
const maxPrefix = 512;

export function completeAt(
  document: TextDocument,
  position: Position,
  catalog: OnloadCatalog,
  options: CompletionOptions,
  profileNames: () => Promise<string[]>,
): Promise<CompletionItem[]> | CompletionItem[] {
  const lineStart = document.offsetAt({ line: position.line, character: 0 });
  const cursor = document.offsetAt(position);
  const text = document.getText();
  const prefix = text.slice(Math.max(lineStart, cursor - maxPrefix), cursor);
  const replace = (length: number): Range => ({ start: document.positionAt(cursor - length), end: position });
  const context = lexicalContextAt(text, cursor);
  if (context === 'comment') return [];

  const value = /(?:^|[\s;&|(])onload_set\s+([A-Za-z_][A-Za-z0-9_]*)(?:\s+|=)(["']?)([^\s"'=]*)$/.exec(prefix);
  if (value) {
    // Inside quotes only the quote the value itself opened counts: `onload_set EF_X "sf`.
    const quoteOpensValue = value[2] === (context === 'double-quoted' ? '"' : context === 'single-quoted' ? "'" : '');
    const option = catalog.option(value[1]!);
    return option && quoteOpensValue ? valueItems(option, replace(value[3]!.length)) : [];
  }
  if (context !== 'code') return [];
  const name = /(?:^|[\s;&|(])onload_set\s+([A-Za-z0-9_]*)$/.exec(prefix);
  if (name) return optionItems(catalog, replace(name[1]!.length));
  const imported = /(?:^|[\s;&|(])onload_import\s+([^\s]*)$/.exec(prefix);
  if (imported) {
    const partial = imported[1]!;
    return profileNames().then((names) =>
      names.map((profile): CompletionItem => ({
        label: profile,
        kind: CompletionItemKind.Module,
        detail: catalog.standardProfile(profile) ? 'profile shipped with Onload' : 'workspace profile',
        textEdit: { range: replace(partial.length), newText: profile },
      })),
    );
  }
  const command = /^(?:.*(?:[;&|(]|\b(?:then|do|else)\s))?\s*([A-Za-z_]*)$/.exec(prefix);
  if (command) {
    const range = replace(command[1]!.length);
    return directives.map((directive): CompletionItem => ({
      label: directive.label,
      kind: CompletionItemKind.Keyword,
      detail: directive.detail,
      documentation: directive.documentation,
      insertTextFormat: options.snippets ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
      textEdit: { range, newText: options.snippets ? directive.snippet : directive.plain },
    }));
  }
  return [];
}

let optionItemCache: { catalog: OnloadCatalog; items: CompletionItem[] } | undefined;

function optionItems(catalog: OnloadCatalog, range: Range): CompletionItem[] {
  if (optionItemCache?.catalog !== catalog) {
    optionItemCache = {
      catalog,
      items: catalog.options.map((option): CompletionItem => ({
        label: option.name,
        kind: CompletionItemKind.Variable,
        detail: optionDetail(option),
        documentation: { kind: MarkupKind.Markdown, value: optionMarkdown(option) },
        // Hand-described (commonly tuned) options first, deprecated ones last.
        sortText: `${option.deprecated ? 2 : option.described ? 0 : 1}${option.name}`,
        tags: option.deprecated ? [CompletionItemTag.Deprecated] : undefined,
      })),
    };
  }
  return optionItemCache.items.map((item) => ({ ...item, textEdit: { range, newText: item.label } }));
}

function valueItems(option: OptionInfo, range: Range): CompletionItem[] {
  const items: { value: string; detail: string }[] = [];
  const fallback = option.default !== undefined ? String(option.default) : undefined;
  if (option.acceptedNames) {
    for (const name of option.acceptedNames) {
      const meaning = valueMeaning(option, name);
      items.push({
        value: name,
        detail:
          name === option.defaultLabel ? (meaning ? `${meaning} (default)` : 'default') : (meaning ?? option.name),
      });
    }
  } else if (option.enumValues && option.syntax !== 'hex' && option.syntax !== 'hex-strict') {
    for (const [value, label] of Object.entries(option.enumValues)) {
      const meaning = valueMeaning(option, value);
      const said = meaning && meaning !== label ? `${label}: ${meaning}` : label;
      items.push({ value, detail: value === fallback ? `${said} (default)` : said });
    }
  } else if (option.keywords) {
    for (const keyword of option.keywords) items.push({ value: keyword, detail: 'log category' });
  } else if (fallback !== undefined && fallback !== '') {
    items.push({ value: fallback, detail: 'default' });
  }
  return items.map((item, index): CompletionItem => ({
    label: item.value,
    kind: CompletionItemKind.Value,
    detail: item.detail,
    sortText: String(index).padStart(3, '0'),
    textEdit: { range, newText: item.value },
  }));
}
