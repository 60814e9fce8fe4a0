// The memcached binary protocol framing the Couchbase SDK speaks on the KV port: a 24-byte header
// then extras, key and value. Only "classic" request/response magics; the test node never accepts
// the HELLO features that would switch the SDK to alternative (flexible) framing.

export const requestMagic = 0x80;
export const responseMagic = 0x81;
export const headerLength = 24;

export const Opcode = {
  get: 0x00,
  set: 0x01,
  add: 0x02,
  replace: 0x03,
  delete: 0x04,
  noop: 0x0a,
  hello: 0x1f,
  saslListMechs: 0x20,
  saslAuth: 0x21,
  saslStep: 0x22,
  selectBucket: 0x89,
  getClusterConfig: 0xb5,
} as const;

export const Status = {
  success: 0x00,
  keyNotFound: 0x01,
  keyExists: 0x02,
  authError: 0x20,
  authContinue: 0x21,
  noAccess: 0x24,
  unknownCommand: 0x81,
  temporaryFailure: 0x82,
} as const;

export const Datatype = { raw: 0x00, json: 0x01 } as const;

export interface KvRequest {
  opcode: number;
  datatype: number;
  vbucket: number;
  opaque: number;
  cas: bigint;
  extras: Buffer;
  key: Buffer;
  value: Buffer;
}

export interface KvResponse {
  status: number;
  datatype?: number;
  cas?: bigint;
  extras?: Buffer;
  key?: Buffer;
  value?: Buffer;
}

/** Largest body the node accepts: keeps a confused or hostile client from making it buffer forever. */
export const maxBodyLength = 21 * 1024 * 1024;

export class FrameError extends Error {}

/**
 * Splits a stream into requests. Returns the requests found and the unconsumed tail; throws
 * FrameError for a frame the node cannot make sense of (the caller then closes the connection).
 */
export function readRequests(buffer: Buffer): { requests: KvRequest[]; rest: Buffer } {
  const requests: KvRequest[] = [];
  let offset = 0;
  while (buffer.length - offset >= headerLength) {
    const magic = buffer[offset];
    if (magic !== requestMagic) throw new FrameError(`unsupported magic 0x${magic.toString(16)}`);
    const keyLength = buffer.readUInt16BE(offset + 2);
    const extrasLength = buffer[offset + 4];
    const bodyLength = buffer.readUInt32BE(offset + 8);
    if (bodyLength > maxBodyLength) throw new FrameError(`body of ${bodyLength} bytes is too large`);
    if (keyLength + extrasLength > bodyLength) throw new FrameError('key and extras longer than the body');
    if (buffer.length - offset < headerLength + bodyLength) break;
    const body = offset + headerLength;
    requests.push({
      opcode: buffer[offset + 1],
      datatype: buffer[offset + 5],
      vbucket: buffer.readUInt16BE(offset + 6),
      opaque: buffer.readUInt32BE(offset + 12),
      cas: buffer.readBigUInt64BE(offset + 16),
      extras: Buffer.from(buffer.subarray(body, body + extrasLength)),
      key: Buffer.from(buffer.subarray(body + extrasLength, body + extrasLength + keyLength)),
      value: Buffer.from(buffer.subarray(body + extrasLength + keyLength, body + bodyLength)),
    });
    offset += headerLength + bodyLength;
  }
  return { requests, rest: offset === 0 ? buffer : Buffer.from(buffer.subarray(offset)) };
}

export function encodeResponse(request: Pick<KvRequest, 'opcode' | 'opaque'>, response: KvResponse): Buffer {
  const extras = response.extras ?? Buffer.alloc(0);
  const key = response.key ?? Buffer.alloc(0);
  const value = response.value ?? Buffer.alloc(0);
  const header = Buffer.alloc(headerLength);
  header[0] = responseMagic;
  header[1] = request.opcode;
  header.writeUInt16BE(key.length, 2);
  header[4] = extras.length;
  header[5] = response.datatype ?? Datatype.raw;
  header.writeUInt16BE(response.status, 6);
  header.writeUInt32BE(extras.length + key.length + value.length, 8);
  header.writeUInt32BE(request.opaque, 12);
  header.writeBigUInt64BE(response.cas ?? 0n, 16);
  return Buffer.concat([header, extras, key, value]);
}

/** A request frame, for the self-tests' raw-protocol checks. */
export function encodeRequest(request: Partial<KvRequest> & { opcode: number }): Buffer {
  const extras = request.extras ?? Buffer.alloc(0);
  const key = request.key ?? Buffer.alloc(0);
  const value = request.value ?? Buffer.alloc(0);
  const header = Buffer.alloc(headerLength);
  header[0] = requestMagic;
  header[1] = request.opcode;
  header.writeUInt16BE(key.length, 2);
  header[4] = extras.length;
  header[5] = request.datatype ?? 0;
  header.writeUInt16BE(request.vbucket ?? 0, 6);
  header.writeUInt32BE(extras.length + key.length + value.length, 8);
  header.writeUInt32BE(request.opaque ?? 0, 12);
  header.writeBigUInt64BE(request.cas ?? 0n, 16);
  return Buffer.concat([header, extras, key, value]);
}
