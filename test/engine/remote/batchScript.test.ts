// The one-trip batch (issue 24): each part runs in its own subshell under a real sh, its output
// and exit status come back framed, a conditional part runs only after the line it waits for.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { batchScript, splitBatch } from '../../../engine/src/remote/batchScript';

const sh = (script: string): string => execFileSync('sh', ['-c', script], { encoding: 'utf8' });

describe('batchScript', () => {
  it('runs every part in its own subshell: an exit ends only its part, each keeps its status and output', () => {
    const output = sh(
      batchScript([
        { name: 'first', script: 'echo "@rights sudo"\necho one\nexit 3' },
        { name: 'empty', script: 'true' },
        { name: 'second', script: "echo '@rights no-sudo'; printf 'a\\n\\nb\\n'" },
      ]),
    );
    const parts = splitBatch(output);
    assert.deepEqual([...parts.keys()], ['first', 'empty', 'second']);
    assert.deepEqual(parts.get('first'), { exitCode: 3, text: '@rights sudo\none\n' });
    assert.deepEqual(parts.get('empty'), { exitCode: 0, text: '' });
    // each part's own tags stay in its part (two parsers reading `@rights` see only their own)
    assert.deepEqual(parts.get('second'), { exitCode: 0, text: '@rights no-sudo\na\n\nb\n' });
  });

  it('runs a conditional part only when the earlier part printed the line', () => {
    const parts = (found: string) =>
      splitBatch(
        sh(
          batchScript([
            { name: 'process', script: found },
            { name: 'stack', script: `echo "it's there"`, onlyIf: { part: 'process', line: '^@pid [0-9]+$' } },
          ]),
        ),
      );
    assert.deepEqual(parts('echo "@pid 4242"').get('stack'), { exitCode: 0, text: "it's there\n" });
    assert.equal(parts('echo "@candidate 4242"; echo "x@pid 1"').has('stack'), false);
  });

  it('refuses part names that are not shell words; output without frames has no parts', () => {
    assert.throws(() => batchScript([{ name: 'a b', script: 'true' }]), /not a shell word/);
    assert.equal(splitBatch('').size, 0);
    assert.equal(splitBatch('@rights sudo\n').size, 0);
  });
});
