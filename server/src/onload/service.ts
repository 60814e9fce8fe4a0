// The Onload profile language service: every feature behind the LanguageFeatures contract, plus
// direct entry points (analyse, effective configuration) for the CLI, the engine and benchmarks.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type {
  CodeAction,
  CompletionItem,
  Diagnostic,
  DocumentSymbol,
  Hover,
  Location,
  Position,
  Range,
} from 'vscode-languageserver-types';
import {
  neverCancelled,
  noClientCommands,
  richCompletion,
  type Cancellation,
  type CompletionOptions,
  type HoverOptions,
  type LanguageFeatures,
  type LanguageSettings,
  type WorkspaceFiles,
} from '../common/languageFeatures';
import { diagnosticsForRange } from '../common/codeActionRange';
import { withoutDisabled } from '../common/disableComments';
import type { EffectiveConfigurationResult } from '../protocol';
import { onloadCatalog, type OnloadCatalog } from './catalog';
import { quickFixes } from './codeActions';
import { completeAt } from './completion';
import { computeDiagnostics } from './diagnostics';
import { analyseProfile, type ProfileAnalysis } from './profileAnalysis';
import { effectiveConfiguration } from './effectiveConfiguration';
import { hoverAt } from './hover';
import { ImportResolver, isProfileUri, profileNameOf } from './imports';
import { contains, directiveAt, parsedDocument } from './profileDocument';
import { documentSymbols } from './symbols';

export const onloadLanguageId = 'onload-profile';

export class OnloadLanguageService implements LanguageFeatures {
  readonly languageId = onloadLanguageId;

  private profilePath: readonly string[];

  constructor(
    readonly catalog: OnloadCatalog = onloadCatalog(),
    settings: Partial<LanguageSettings> = {},
  ) {
    this.profilePath = settings.profilePath ?? [];
  }

  configure(settings: LanguageSettings): void {
    this.profilePath = settings.profilePath;
  }

  /** The one import resolution order (see imports.ts), with this service's profile path. */
  resolver(files: WorkspaceFiles): ImportResolver {
    return new ImportResolver(files, this.catalog, this.profilePath);
  }

  /** Parses the document (cached per version) and follows its imports. */
  analyse(
    document: TextDocument,
    files: WorkspaceFiles,
    token: Cancellation = neverCancelled,
  ): Promise<ProfileAnalysis> {
    return analyseProfile(document.uri, parsedDocument(document), this.resolver(files), this.catalog, token);
  }

  async diagnostics(
    document: TextDocument,
    files: WorkspaceFiles,
    token: Cancellation = neverCancelled,
  ): Promise<Diagnostic[]> {
    const analysis = await this.analyse(document, files, token);
    const hasUnresolved = [...analysis.imports.values()].some((outcome) => outcome.target.kind === 'unresolved');
    const names = hasUnresolved ? await this.workspaceProfileNames(files) : [];
    // `# onload-bench-disable-next-line CODE` hides what it names (common/disableComments.ts).
    return withoutDisabled(document.getText(), computeDiagnostics(document, analysis, this.catalog, names));
  }

  async completion(
    document: TextDocument,
    position: Position,
    files: WorkspaceFiles,
    _token: Cancellation = neverCancelled,
    options: CompletionOptions = richCompletion,
  ): Promise<CompletionItem[]> {
    return completeAt(document, position, this.catalog, options, async () => {
      const own = profileNameOf(document.uri);
      const names = new Set([
        ...(await this.workspaceProfileNames(files)),
        ...this.catalog.standardProfiles.map((profile) => profile.name),
      ]);
      names.delete(own);
      return [...names].sort();
    });
  }

  async hover(
    document: TextDocument,
    position: Position,
    files: WorkspaceFiles,
    token: Cancellation = neverCancelled,
    options: HoverOptions = noClientCommands,
  ): Promise<Hover | null> {
    const offset = document.offsetAt(position);
    if (!directiveAt(parsedDocument(document), offset)) return null;
    return hoverAt(document, offset, await this.analyse(document, files, token), this.catalog, options);
  }

  async codeActions(
    document: TextDocument,
    range: Range,
    diagnostics: Diagnostic[],
    _token: Cancellation = neverCancelled,
  ): Promise<CodeAction[]> {
    return quickFixes(document.uri, diagnosticsForRange(range, diagnostics));
  }

  async documentSymbols(document: TextDocument, _token: Cancellation = neverCancelled): Promise<DocumentSymbol[]> {
    return documentSymbols(document, parsedDocument(document));
  }

  async definition(
    document: TextDocument,
    position: Position,
    files: WorkspaceFiles,
    _token: Cancellation = neverCancelled,
  ): Promise<Location[]> {
    const offset = document.offsetAt(position);
    const found = directiveAt(parsedDocument(document), offset);
    if (!found || found.directive.kind !== 'import' || !contains(found.directive.nameSpan, offset)) return [];
    const target = await this.resolver(files).resolve(found.directive.name, document.uri, found.directive.nameDynamic);
    if (target.kind !== 'file') return [];
    return [{ uri: target.uri, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }];
  }

  async effectiveConfiguration(
    document: TextDocument,
    files: WorkspaceFiles,
    token: Cancellation = neverCancelled,
  ): Promise<EffectiveConfigurationResult> {
    return effectiveConfiguration(await this.analyse(document, files, token), this.catalog);
  }

  private async workspaceProfileNames(files: WorkspaceFiles): Promise<string[]> {
    return [...new Set((await files.find(isProfileUri)).map(profileNameOf))];
  }
}

export function createOnloadLanguage(settings: Partial<LanguageSettings> = {}): OnloadLanguageService {
  return new OnloadLanguageService(onloadCatalog(), settings);
}
