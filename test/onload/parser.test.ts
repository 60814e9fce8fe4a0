// The profile scanner on its own: forms of onload_set, exact spans, and conditional contexts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseProfile, type ImportDirective, type SetDirective } from '../../server/src/onload/parser';

const sets = (text: string) =>
  parseProfile(text).directives.filter((directive): directive is SetDirective => directive.kind === 'set');

test('the two forms of onload_set, quoting, and where name and value sit', () => {
  const text = 'onload_set EF_A 1\nonload_set EF_B=2 # note\nonload_set "EF_C" "a b"\nonload_set EF_D=x=y\n';
  const [a, b, c, d] = sets(text);
  assert.deepEqual(
    [a!.name, a!.value, a!.form, text.slice(a!.valueSpan.start, a!.valueSpan.end)],
    ['EF_A', '1', 'words', '1'],
  );
  assert.deepEqual(
    [b!.name, b!.value, b!.form, text.slice(b!.nameSpan.start, b!.nameSpan.end)],
    ['EF_B', '2', 'equals', 'EF_B'],
  );
  assert.deepEqual([c!.name, c!.value, c!.extraWords.length], ['EF_C', 'a b', 0]);
  assert.deepEqual([d!.value, d!.cutFrom?.written], ['x', 'x=y']);
  assert.equal(sets('##onload_set EF_X 1\n').length, 0, 'a commented-out directive is a comment');
});

test('expansions make a value dynamic; a missing value sets the name to itself', () => {
  const [dynamic, arithmetic, missing, empty] = sets(
    'onload_set EF_A "$n"\nonload_set EF_B $(( (1+2) * $x ))\nonload_set EF_C\nonload_set EF_D \'\'\n',
  );
  assert.equal(dynamic!.valueDynamic, true);
  assert.equal(arithmetic!.valueDynamic, true);
  assert.equal(arithmetic!.value.startsWith('$(('), true);
  assert.equal(missing!.valueMissing, true);
  assert.equal(empty!.valueMissing, true);
});

test('if, case, functions, loops, && / || and pipelines make a directive conditional', () => {
  const text = [
    'onload_set EF_TOP 1',
    'if [ -n "$X" ]; then onload_set EF_IF 1; fi',
    'case $M in',
    '  0) onload_set EF_CASE 1 ;;',
    'esac',
    'f() { onload_set EF_FN 1; }',
    'for i in 1 2; do onload_set EF_LOOP 1; done',
    '[ -z "$Y" ] && onload_set EF_ANDOR 1',
    'onload_set EF_PIPE 1 | cat',
    '( onload_set EF_SUB 1 )',
    '{ onload_set EF_GROUP 1; }',
    'onload_set EF_AFTER 1',
  ].join('\n');
  const contexts = Object.fromEntries(sets(text).map((directive) => [directive.name, directive.contexts.join(',')]));
  assert.deepEqual(contexts, {
    EF_TOP: '',
    EF_IF: 'if',
    EF_CASE: 'case',
    EF_FN: 'function',
    EF_LOOP: 'loop',
    EF_ANDOR: 'and-or',
    EF_PIPE: 'pipeline',
    EF_SUB: 'subshell',
    EF_GROUP: '',
    EF_AFTER: '',
  });
  assert.deepEqual(
    parseProfile(text).functions.map((fn) => fn.name),
    ['f'],
  );
});

test('line continuations, heredocs, CRLF and multi-line strings', () => {
  const text =
    'onload_set \\\n  EF_A 1\r\ncat <<EOF\r\nonload_set EF_HIDDEN 1\r\nEOF\r\necho "line\nonload_set EF_IN_STRING 1"\r\nonload_set EF_B 2\r\n';
  assert.deepEqual(
    sets(text).map((directive) => [directive.name, directive.value, directive.line]),
    [
      ['EF_A', '1', 0],
      ['EF_B', '2', 7],
    ],
  );
});

test('redirections are not arguments', () => {
  const [set] = sets('onload_set EF_A 1 2>/dev/null >>log\n');
  assert.deepEqual([set!.value, set!.extraWords.length], ['1', 0]);
});

test('onload_import with arguments, and a dynamic name', () => {
  const directives = parseProfile('onload_import nginx-parse-config "$@"\nonload_import "$P"\n')
    .directives as ImportDirective[];
  assert.deepEqual(
    directives.map((directive) => [directive.name, directive.args.length, directive.nameDynamic]),
    [
      ['nginx-parse-config', 1, false],
      ['$P', 0, true],
    ],
  );
});

test('unbalanced shell never throws and keeps later directives', () => {
  const [last] = sets('fi\ndone\n}\n)\nesac\nonload_set EF_OK 1\n');
  assert.equal(last?.name, 'EF_OK');
  assert.equal(last?.conditional, false);
});
