// The params of the messages the server handles, checked for the shape the LSP gives them before
// any handler sees them. A `didOpen` whose text was null once ended the server (a TypeError in a
// timer); a client, a proxy or a fuzzer can send anything. A malformed notification is dropped (a
// notification has no answer; the log says why), a malformed request is answered with -32602
// (InvalidParams). Only the shapes the handlers rely on are checked, nothing more.
type Check = (params: unknown) => string | undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
const isPosition = (value: unknown) => isObject(value) && isCount(value.line) && isCount(value.character);
const isRange = (value: unknown) => isObject(value) && isPosition(value.start) && isPosition(value.end);

/** `params.textDocument.uri` (and more fields of textDocument, each with its type). */
function textDocument(params: unknown, fields: Record<string, 'string' | 'integer'> = {}): string | undefined {
  if (!isObject(params)) return 'params is not an object';
  const document = params.textDocument;
  if (!isObject(document)) return 'textDocument is not an object';
  for (const [field, type] of Object.entries({ uri: 'string', ...fields })) {
    const value = document[field];
    if (type === 'string' ? typeof value !== 'string' : !Number.isInteger(value))
      return `textDocument.${field} is not ${type === 'string' ? 'a string' : 'an integer'}`;
  }
  return undefined;
}

const atPosition: Check = (params) =>
  textDocument(params) ??
  (isPosition((params as Record<string, unknown>).position) ? undefined : 'position is not a position');

const checks: Record<string, Check> = {
  'textDocument/didOpen': (params) =>
    textDocument(params, { languageId: 'string', version: 'integer', text: 'string' }),
  'textDocument/didChange': (params) => {
    const problem = textDocument(params, { version: 'integer' });
    if (problem) return problem;
    const changes = (params as Record<string, unknown>).contentChanges;
    if (!Array.isArray(changes)) return 'contentChanges is not a list';
    const bad = changes.findIndex(
      (change) =>
        !isObject(change) || typeof change.text !== 'string' || (change.range !== undefined && !isRange(change.range)),
    );
    return bad === -1 ? undefined : `contentChanges[${bad}] is not a text change`;
  },
  'textDocument/didClose': (params) => textDocument(params),
  'textDocument/didSave': (params) => textDocument(params),
  'workspace/didChangeConfiguration': (params) => (isObject(params) ? undefined : 'params is not an object'),
  'workspace/didChangeWatchedFiles': (params) =>
    isObject(params) && Array.isArray(params.changes) ? undefined : 'changes is not a list',
  'textDocument/completion': atPosition,
  'textDocument/hover': atPosition,
  'textDocument/definition': atPosition,
  'textDocument/documentSymbol': (params) => textDocument(params),
  'textDocument/codeAction': (params) => {
    const problem = textDocument(params);
    if (problem) return problem;
    const { range, context } = params as Record<string, unknown>;
    if (!isRange(range)) return 'range is not a range';
    if (context !== undefined && !isObject(context)) return 'context is not an object';
    const diagnostics = isObject(context) ? context.diagnostics : undefined;
    if (
      diagnostics !== undefined &&
      !(
        Array.isArray(diagnostics) &&
        diagnostics.every((diagnostic) => isObject(diagnostic) && isRange(diagnostic.range))
      )
    )
      return 'context.diagnostics is not a list of diagnostics';
    return undefined;
  },
};

/** Why these params cannot be handled, or undefined when they can (or the method is not checked here). */
export function malformedParams(method: string, params: unknown): string | undefined {
  return checks[method]?.(params);
}
