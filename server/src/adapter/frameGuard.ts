// Guards the `--stdio` byte stream before vscode-jsonrpc reads it. That reader stops making sense
// of the stream after one frame whose `Content-Length` is missing or not a number: the rest of the
// bad frame stays in its buffer and every later header is read as garbage, so the server goes deaf
// for the session. Here each frame is checked first; a bad one is answered with a JSON-RPC parse
// error (id null, as the specification says) and the stream resynchronises at the next
// `Content-Length:` header. Good frames pass through byte for byte.
import { Transform, type TransformCallback } from 'node:stream';

/** The largest body a client may announce (a 50 MB document in UTF-8 with JSON escapes fits). */
export const maxContentLength = 512 * 1024 * 1024;
/** A header block longer than this is not a header: resynchronise. */
const maxHeaderBytes = 8 * 1024;

const headerEnd = Buffer.from('\r\n\r\n');
const headerStart = Buffer.from('content-length:');

export interface FrameError {
  reason: string;
}

export class FrameGuard extends Transform {
  private buffer: Buffer = Buffer.alloc(0);
  /** Bytes of the current frame's body still to pass through. */
  private bodyLeft = 0;

  constructor(private readonly onBadFrame: (error: FrameError) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let data: Buffer = chunk;
    for (;;) {
      if (this.bodyLeft > 0) {
        const take = Math.min(this.bodyLeft, data.length);
        this.push(data.subarray(0, take));
        this.bodyLeft -= take;
        data = data.subarray(take);
        if (this.bodyLeft > 0 || data.length === 0) break;
      }
      this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data]);
      if (!this.readHeader()) break;
      // readHeader set bodyLeft and left the bytes after the header in `buffer`.
      data = this.buffer;
      this.buffer = Buffer.alloc(0);
      if (data.length === 0) break;
    }
    callback();
  }

  /** True when a good header was passed through (its body follows); false when more bytes are needed. */
  private readHeader(): boolean {
    for (;;) {
      const end = this.buffer.indexOf(headerEnd);
      if (end === -1) {
        if (this.buffer.length > maxHeaderBytes)
          this.resynchronise('a header without an end (no blank line after it)', 1);
        return false;
      }
      const header = this.buffer.subarray(0, end).toString('ascii');
      const problem = headerProblem(header);
      if (problem === undefined) {
        const length = Number(/^content-length:\s*(\d+)\s*$/im.exec(header)![1]);
        this.push(this.buffer.subarray(0, end + headerEnd.length));
        this.bodyLeft = length;
        this.buffer = this.buffer.subarray(end + headerEnd.length);
        if (length === 0) continue;
        return true;
      }
      this.resynchronise(problem, 1);
      if (this.buffer.length === 0) return false;
    }
  }

  /** Reports a bad frame and drops bytes up to the next `Content-Length:` at or after `from`. */
  private resynchronise(reason: string, from: number): void {
    this.onBadFrame({ reason });
    const lower = Buffer.from(this.buffer.toString('latin1').toLowerCase(), 'latin1');
    const next = lower.indexOf(headerStart, from);
    if (next !== -1) {
      this.buffer = this.buffer.subarray(next);
      return;
    }
    // Keep only a tail that may be the start of the next header ("Content-Le" split across writes).
    let keep = Math.min(lower.length, headerStart.length - 1);
    while (keep > 0 && !lower.subarray(lower.length - keep).equals(headerStart.subarray(0, keep))) keep--;
    this.buffer = this.buffer.subarray(this.buffer.length - keep);
  }
}

/** Why a header block is not one vscode-jsonrpc can read, or undefined when it is fine. */
export function headerProblem(header: string): string | undefined {
  const lines = header.split('\r\n');
  let length: string | undefined;
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) return `a header line without a name: ${JSON.stringify(line.slice(0, 80))}`;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (name === 'content-length') length = line.slice(colon + 1).trim();
  }
  if (length === undefined) return 'a frame without a Content-Length header';
  if (!/^\d+$/.test(length)) return `Content-Length is not a number: ${JSON.stringify(length.slice(0, 40))}`;
  if (Number(length) > maxContentLength) return `Content-Length ${length} is larger than ${maxContentLength}`;
  return undefined;
}
