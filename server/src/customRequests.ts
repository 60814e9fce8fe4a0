// Requests beyond standard LSP (see protocol.ts), answered by the pure services.
import type { Connection } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { LanguageFeatures, WorkspaceFiles } from './common/languageFeatures';
import { createOnloadLanguage, onloadLanguageId, OnloadLanguageService } from './onload/service';
import {
  EffectiveConfigurationRequest,
  type EffectiveConfigurationParams,
  type EffectiveConfigurationResult,
} from './protocol';

export function registerCustomRequests(
  connection: Connection,
  files: WorkspaceFiles,
  documentOf: (uri: string) => TextDocument | undefined,
  languages: readonly LanguageFeatures[],
): void {
  // The server's own service, so the effective configuration follows its settings (profilePath).
  const onload =
    languages.find((language): language is OnloadLanguageService => language instanceof OnloadLanguageService) ??
    createOnloadLanguage();
  // The effective configuration of an Onload profile, open or only on disk.
  connection.onRequest(
    EffectiveConfigurationRequest.method,
    async (params: EffectiveConfigurationParams, token): Promise<EffectiveConfigurationResult> => {
      let document = documentOf(params.uri);
      if (!document) {
        const text = await files.read(params.uri);
        if (text === undefined) throw new Error(`cannot read ${params.uri}`);
        document = TextDocument.create(params.uri, onloadLanguageId, 0, text);
      }
      return onload.effectiveConfiguration(document, files, token);
    },
  );
}
