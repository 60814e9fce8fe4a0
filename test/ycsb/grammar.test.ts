// The TextMate grammar tokenised with vscode-textmate (the engine VS Code uses): comments, keys,
// separators, values, escapes and continuation lines get the expected scopes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as oniguruma from 'vscode-oniguruma';
import { INITIAL, parseRawGrammar, Registry, type IGrammar } from 'vscode-textmate';

const require = createRequire(__filename);

async function loadGrammar(): Promise<IGrammar> {
  const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
  const registry = new Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async () =>
      parseRawGrammar(readFileSync('syntaxes/ycsb-workload.tmLanguage.json', 'utf8'), 'ycsb-workload.tmLanguage.json'),
  });
  return (await registry.loadGrammar('source.ycsb-workload'))!;
}

/** Each token's text with its most specific scope, over all lines. */
async function tokenize(text: string): Promise<[string, string][]> {
  const grammar = await loadGrammar();
  let state = INITIAL;
  const out: [string, string][] = [];
  for (const line of text.split('\n')) {
    const result = grammar.tokenizeLine(line, state);
    for (const token of result.tokens) {
      const piece = line.slice(token.startIndex, token.endIndex);
      if (piece.trim().length > 0) out.push([piece, token.scopes[token.scopes.length - 1]!]);
    }
    state = result.ruleStack;
  }
  return out;
}

const scopeOf = (tokens: [string, string][], piece: string) => tokens.find(([text]) => text === piece)?.[1];

test('the manifest points at the grammar and the language configuration', () => {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
  const grammar = manifest.contributes.grammars.find((g: { language: string }) => g.language === 'ycsb-workload');
  assert.equal(grammar.scopeName, 'source.ycsb-workload');
  assert.equal(JSON.parse(readFileSync(grammar.path, 'utf8')).scopeName, 'source.ycsb-workload');
  const language = manifest.contributes.languages.find((l: { id: string }) => l.id === 'ycsb-workload');
  assert.equal(JSON.parse(readFileSync(language.configuration, 'utf8')).comments.lineComment, '#');
});

test('comments, keys, separators, numbers, booleans and class names', async () => {
  const tokens = await tokenize(
    '# a comment\n! another\nworkload=site.ycsb.workloads.CoreWorkload\nrecordcount : 1000\nreadallfields true\n',
  );
  assert.equal(scopeOf(tokens, ' a comment'), 'comment.line.number-sign.ycsb-workload');
  assert.equal(scopeOf(tokens, '#'), 'punctuation.definition.comment.ycsb-workload');
  assert.equal(scopeOf(tokens, ' another'), 'comment.line.number-sign.ycsb-workload');
  assert.equal(scopeOf(tokens, 'workload'), 'variable.other.property.key.ycsb-workload');
  assert.equal(scopeOf(tokens, '='), 'punctuation.separator.key-value.ycsb-workload');
  assert.equal(scopeOf(tokens, 'site.ycsb.workloads.CoreWorkload'), 'entity.name.type.class.ycsb-workload');
  assert.equal(scopeOf(tokens, 'recordcount'), 'variable.other.property.key.ycsb-workload');
  assert.equal(scopeOf(tokens, ' : '), 'punctuation.separator.key-value.ycsb-workload');
  assert.equal(scopeOf(tokens, '1000'), 'constant.numeric.ycsb-workload');
  assert.equal(scopeOf(tokens, 'true'), 'constant.language.boolean.ycsb-workload');
});

test('escapes and continuation lines stay in the value; a comment sign there is not a comment', async () => {
  const tokens = await tokenize('hdrhistogram.percentiles=50,\\\n  # still the value\nlabel=caf\\u00e9\\zz\nnext=1\n');
  assert.equal(scopeOf(tokens, '\\'), 'constant.character.escape.line-continuation.ycsb-workload');
  assert.equal(scopeOf(tokens, '  # still the value'), 'string.unquoted.value.ycsb-workload');
  assert.equal(scopeOf(tokens, '\\u00e9'), 'constant.character.escape.unicode.ycsb-workload');
  assert.equal(scopeOf(tokens, '\\z'), 'constant.character.escape.ycsb-workload');
  assert.equal(scopeOf(tokens, 'next'), 'variable.other.property.key.ycsb-workload');
});
