// The TextMate grammar, tokenized with the same engine VS Code uses (vscode-textmate + oniguruma).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import * as oniguruma from 'vscode-oniguruma';
import { INITIAL, parseRawGrammar, Registry, type IGrammar } from 'vscode-textmate';

let grammar: IGrammar;

before(async () => {
  await oniguruma.loadWASM(readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer as ArrayBuffer);
  const registry = new Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName) =>
      scopeName === 'source.onload-profile'
        ? parseRawGrammar(
            readFileSync('syntaxes/onload-profile.tmLanguage.json', 'utf8'),
            'onload-profile.tmLanguage.json',
          )
        : null,
  });
  grammar = (await registry.loadGrammar('source.onload-profile'))!;
});

/** Each non-blank token of a line with its most specific scope (neighbours with one scope merged). */
function tokens(line: string): [string, string][] {
  const merged: [string, string][] = [];
  for (const token of grammar.tokenizeLine(line, INITIAL).tokens) {
    const text = line.slice(token.startIndex, token.endIndex);
    const scope = token.scopes.at(-1)!;
    const last = merged.at(-1);
    if (last && last[1] === scope) last[0] += text;
    else merged.push([text, scope]);
  }
  return merged.map(([text, scope]): [string, string] => [text.trim(), scope]).filter(([text]) => text.length > 0);
}

test('package.json points at this grammar by its scope name', () => {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
  const entry = manifest.contributes.grammars.find(
    (candidate: { language: string }) => candidate.language === 'onload-profile',
  );
  assert.deepEqual(
    [entry.scopeName, entry.path],
    ['source.onload-profile', './syntaxes/onload-profile.tmLanguage.json'],
  );
});

test('directives, option names, numbers, strings and comments', () => {
  assert.deepEqual(tokens('onload_set EF_POLL_USEC 100000 # spin'), [
    ['onload_set', 'keyword.other.directive.set.onload-profile'],
    ['EF_POLL_USEC', 'variable.other.option.onload-profile'],
    ['100000', 'constant.numeric.onload-profile'],
    ['#', 'punctuation.definition.comment.onload-profile'],
    ['spin', 'comment.line.number-sign.onload-profile'],
  ]);
  assert.deepEqual(tokens('onload_set EF_CLUSTER_NAME "prox"').slice(1), [
    ['EF_CLUSTER_NAME', 'variable.other.option.onload-profile'],
    ['"prox"', 'string.quoted.double.onload-profile'],
  ]);
  assert.deepEqual(tokens('onload_import latency'), [
    ['onload_import', 'keyword.other.directive.import.onload-profile'],
    ['latency', 'entity.name.type.profile.onload-profile'],
  ]);
  assert.deepEqual(
    tokens('##onload_set EF_X 1').map(([, scope]) => scope),
    ['punctuation.definition.comment.onload-profile', 'comment.line.number-sign.onload-profile'],
  );
});

test('shell keywords and expansions around the directives', () => {
  const line = tokens('if [ -z "$EF_CTPIO_MODE" ]; then');
  assert.deepEqual(line[0], ['if', 'keyword.control.shell.onload-profile']);
  assert.ok(
    line.some(([text, scope]) => text === '$EF_CTPIO_MODE' && scope === 'variable.other.expansion.onload-profile'),
    JSON.stringify(line),
  );
  assert.deepEqual(line.at(-1), ['then', 'keyword.control.shell.onload-profile']);
  assert.ok(
    tokens('onload_set EF_MAX_PACKETS $(( 1000 / $n ))').some(
      ([, scope]) => scope === 'meta.arithmetic.onload-profile' || scope === 'variable.other.expansion.onload-profile',
    ),
  );
});
