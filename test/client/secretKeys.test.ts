import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeSecretKey, passwordSecretKey, secretKeyPrefix } from '../../client/src/secretKeys';

test('the key names the admin user and the server hosts, in a stable order', () => {
  const key = passwordSecretKey({ servers: [{ host: 'cb2.lab' }, { host: 'CB1.lab', adminUser: 'Administrator' }] });
  assert.equal(key, `${secretKeyPrefix}Administrator@cb1.lab,Administrator@cb2.lab`);
});

test('plans naming the same cluster share a key; another admin user or host gets another key', () => {
  const a = passwordSecretKey({ servers: [{ host: 'cb1' }, { host: 'cb2' }] });
  const b = passwordSecretKey({
    servers: [{ host: 'cb2', adminUser: 'Administrator' }, { host: 'cb1' }, { host: 'cb1' }],
  });
  assert.equal(a, b);
  assert.notEqual(a, passwordSecretKey({ servers: [{ host: 'cb1', adminUser: 'bench' }, { host: 'cb2' }] }));
  assert.notEqual(a, passwordSecretKey({ servers: [{ host: 'cb1' }] }));
});

test('the description groups hosts by user for pickers', () => {
  const key = passwordSecretKey({ servers: [{ host: 'cb1' }, { host: 'cb2' }, { host: 'cb3', adminUser: 'bench' }] });
  assert.equal(describeSecretKey(key), 'Administrator@cb1, cb2; bench@cb3');
  assert.equal(describeSecretKey('something-else'), 'something-else');
});
