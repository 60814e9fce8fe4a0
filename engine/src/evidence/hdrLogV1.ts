// The histograms in YCSB 0.17.0's HDR interval logs are in HdrHistogram's V1 encoding: the release
// ships HdrHistogram 2.1.4, which predates V2 (counts as ZigZag LEB128), and hdr-histogram-js
// reads V2 only ("Encoding not supported, only V2 is supported"). Learnt from the real YCSB in the
// lab: every .hdr file it wrote was unreadable to the engine. Pure.
//
// Layout (HdrHistogram 2.1.4 AbstractHistogram.encodeInto[Compressed]ByteBuffer, big-endian):
//   compressed: int cookie 0x1c849302 + (wordSize << 4), int length, then `length` bytes of zlib
//   inner: int cookie 0x1c849301 + (wordSize << 4), int payload length, int normalizing index
//          offset, int significant digits, long lowest discernible value, long highest trackable
//          value, double integer-to-double ratio (40 bytes), then one count per index, wordSize
//          bytes each.
// Index i holds the values of bucket (i >> subBucketHalfCountMagnitude) - 1, as in HdrHistogram.
import { inflateSync } from 'node:zlib';
import { build, type Histogram } from 'hdr-histogram-js';

const v1Cookie = 0x1c849301;
const v1CompressedCookie = 0x1c849302;

/** Whether a compressed base64 histogram is V1 (0.17.0's HdrHistogram 2.1.4). */
export function isV1CompressedBase64(base64: string): boolean {
  const head = Buffer.from(base64.slice(0, 8), 'base64');
  return head.length >= 4 && (head.readInt32BE(0) & ~0xf0) === v1CompressedCookie;
}

/** The lowest value of count index `index` (HdrHistogram's valueFromIndex with its bucket layout). */
export function valueFromIndex(index: number, significantDigits: number, lowestDiscernibleValue: number): number {
  const largestSingleUnitResolution = 2 * 10 ** significantDigits;
  const subBucketCountMagnitude = Math.ceil(Math.log2(largestSingleUnitResolution));
  const subBucketHalfCountMagnitude = subBucketCountMagnitude - 1;
  const subBucketHalfCount = 2 ** subBucketHalfCountMagnitude;
  const unitMagnitude = Math.floor(Math.log2(lowestDiscernibleValue));
  let bucketIndex = Math.floor(index / subBucketHalfCount) - 1;
  let subBucketIndex = (index % subBucketHalfCount) + subBucketHalfCount;
  if (bucketIndex < 0) {
    subBucketIndex -= subBucketHalfCount;
    bucketIndex = 0;
  }
  return subBucketIndex * 2 ** (bucketIndex + unitMagnitude);
}

/** Decodes one V1 compressed histogram into an (auto-resizing) hdr-histogram-js histogram. */
export function decodeV1CompressedBase64(base64: string): Histogram {
  const outer = Buffer.from(base64, 'base64');
  const cookie = outer.readInt32BE(0);
  if ((cookie & ~0xf0) !== v1CompressedCookie)
    throw new Error(`not a V1 compressed histogram (cookie 0x${(cookie >>> 0).toString(16)})`);
  const inner = inflateSync(outer.subarray(8, 8 + outer.readInt32BE(4)));
  const innerCookie = inner.readInt32BE(0);
  if ((innerCookie & ~0xf0) !== v1Cookie)
    throw new Error(`not a V1 histogram (cookie 0x${(innerCookie >>> 0).toString(16)})`);
  const wordSize = (innerCookie & 0xf0) >> 4;
  const payloadLength = inner.readInt32BE(4);
  const normalizingOffset = inner.readInt32BE(8);
  const digits = inner.readInt32BE(12);
  const lowest = Number(inner.readBigInt64BE(16));
  const histogram = build({
    bitBucketSize: 64,
    numberOfSignificantValueDigits: digits as 1 | 2 | 3 | 4 | 5,
    lowestDiscernibleValue: lowest,
    autoResize: true,
  });
  if (normalizingOffset !== 0) throw new Error('V1 histogram with a normalizing index offset (not written by YCSB)');
  const counts = Math.floor(payloadLength / wordSize);
  for (let index = 0; index < counts; index++) {
    const at = 40 + index * wordSize;
    if (at + wordSize > inner.length) break;
    const count =
      wordSize === 8
        ? Number(inner.readBigInt64BE(at))
        : wordSize === 4
          ? inner.readInt32BE(at)
          : wordSize === 2
            ? inner.readInt16BE(at)
            : inner.readInt8(at);
    if (count > 0) histogram.recordValueWithCount(valueFromIndex(index, digits, lowest), count);
  }
  return histogram;
}
