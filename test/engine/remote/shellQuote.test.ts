import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fillTemplate, shellJoin, shellQuote } from '../../../engine/src/remote/shellQuote';

/** Runs one real `sh` that prints every argument NUL-terminated, exactly as it received them. */
function roundTrip(values: string[]): string[] {
  const script = `for a in ${values.map(shellQuote).join(' ')}; do printf '%s\\0' "$a"; done`;
  const out = execFileSync('sh', ['-c', script], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

describe('shellQuote', () => {
  it('survives a real sh unchanged for any string (property test)', () => {
    const noNul = fc.string({ unit: 'binary', maxLength: 40 }).map((text) => text.replace(/\0/g, ''));
    const tricky = fc.constantFrom(
      "'",
      '"',
      '\\',
      '$(id)',
      '`id`',
      '; rm -rf /',
      '\n',
      ' ',
      '',
      '-n',
      '*',
      '~',
      '!',
      '$HOME',
      "a'b'c",
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(noNul, tricky), { minLength: 1, maxLength: 30 }), (values) => {
        assert.deepEqual(roundTrip(values), values);
      }),
      { numRuns: 60 },
    );
  });

  it('leaves plain words readable and quotes the rest', () => {
    assert.equal(shellQuote('/opt/ycsb'), '/opt/ycsb');
    assert.equal(shellQuote('recordcount=1000'), 'recordcount=1000');
    assert.equal(shellQuote(''), "''");
    assert.equal(shellQuote('-threads'), '-threads');
    assert.equal(shellQuote('=x'), "'=x'");
    assert.equal(shellQuote("it's"), `'it'\\''s'`);
    assert.equal(shellJoin(['echo', 'a b']), "echo 'a b'");
    assert.throws(() => shellQuote('a\0b'), /NUL/);
  });

  it('fills templates with quoted values and leaves unknown placeholders', () => {
    assert.equal(
      fillTemplate('onload --profile={profile} {couchbaseServerPath} -- -noinput', {
        profile: 'p f.opf',
        couchbaseServerPath: '/opt/cb/bin/couchbase-server',
      }),
      "onload --profile='p f.opf' /opt/cb/bin/couchbase-server -- -noinput",
    );
    assert.equal(fillTemplate('x {nope}', {}), 'x {nope}');
  });
});
