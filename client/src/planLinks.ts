// Plans are JSON, served by VS Code's JSON language rather than our server, so their links to the
// workload and profile files come from here: document links plus go to definition, only for files
// that exist. The finding and resolving is in planReferences.ts.
import * as vscode from 'vscode';
import {
  linkablePlanReferences,
  planReferenceAt,
  referenceDescriptions,
  type PlanFileReference,
} from './planReferences';

/** On-disk plans only: a reference is resolved against the plan file's folder. */
const planSelector: vscode.DocumentSelector = { scheme: 'file', pattern: '**/*.benchplan.json' };

const toRange = (reference: PlanFileReference) =>
  new vscode.Range(
    reference.range.start.line,
    reference.range.start.character,
    reference.range.end.line,
    reference.range.end.character,
  );

const referencesIn = (document: vscode.TextDocument) => linkablePlanReferences(document.getText(), document.uri.fsPath);

class PlanLinkProvider implements vscode.DocumentLinkProvider, vscode.DefinitionProvider {
  provideDocumentLinks(document: vscode.TextDocument): vscode.DocumentLink[] {
    return referencesIn(document).map((reference) => {
      const link = new vscode.DocumentLink(toRange(reference), vscode.Uri.file(reference.resolvedPath));
      link.tooltip = `Open the ${referenceDescriptions[reference.kind]}`;
      return link;
    });
  }

  provideDefinition(document: vscode.TextDocument, position: vscode.Position): vscode.LocationLink[] {
    const reference = planReferenceAt(referencesIn(document), position);
    if (!reference) return [];
    const start = new vscode.Range(0, 0, 0, 0);
    return [
      {
        originSelectionRange: toRange(reference),
        targetUri: vscode.Uri.file(reference.resolvedPath),
        targetRange: start,
        targetSelectionRange: start,
      },
    ];
  }
}

export function registerPlanLinks(): vscode.Disposable {
  const provider = new PlanLinkProvider();
  return vscode.Disposable.from(
    vscode.languages.registerDocumentLinkProvider(planSelector, provider),
    vscode.languages.registerDefinitionProvider(planSelector, provider),
  );
}
