import zlib from "node:zlib";

/**
 * One gzip stream made of pieces: the fixed ones compressed once (raw deflate ending in a sync flush, so that any
 * block may follow), the others per answer as stored blocks. A signed-in page's template is the same for everyone
 * but a few short values (signed-in-pages.server.ts): gzipping the whole page per request was most of its cost.
 */
export interface Piece {
  raw: Buffer;
  /** The piece compressed once by `fixedPiece`, with its CRC-32 … */
  fixed?: { deflated: Buffer; crc: number; shift: number };
  /** … or its stored blocks (`storedPiece`), made once however often the value stands in the answer. */
  stored?: Buffer;
}

/**
 * A piece the same in every answer: compressed, and its CRC-32 taken, once. With a `dictionary`, the bytes that
 * stand right before it in every answer, it may point back into them as one whole compression would.
 */
export const fixedPiece = (raw: Buffer, dictionary?: Buffer): Piece => ({
  raw,
  fixed: {
    deflated: zlib.deflateRawSync(raw, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH, ...(dictionary?.length ? { dictionary } : {}) }),
    crc: zlib.crc32(raw),
    shift: crcShift(raw.length),
  },
});

/** How far back deflate points: a dictionary longer than its window is cut to the window. */
const window = 32 * 1024;

/**
 * The fixed pieces of a stream with a value between each two, compressed so that each may point back into the
 * pieces before it (compressed alone, a signed-in page's parts came to 15 % more than the page's own gzip).
 * `gaps[i]` is the byte length of the value after piece i where every answer's has that length (the nonce), else
 * null (a parent's name): a piece's dictionary is what precedes it since the last value of unknown length, with each
 * known value's bytes masked by NULs, which no piece holds (else every piece is compressed alone), so that nothing
 * points into a value.
 */
export function fixedPieces(raws: readonly Buffer[], gaps: readonly (number | null)[]): Piece[] {
  if (raws.some((raw) => raw.includes(0))) return raws.map((raw) => fixedPiece(raw));
  let before: Buffer[] = [];
  return raws.map((raw, index) => {
    const piece = fixedPiece(raw, Buffer.concat(before).subarray(-window));
    const gap = gaps[index];
    before = gap === null || gap === undefined ? [] : [...before, raw, Buffer.alloc(gap)];
    return piece;
  });
}

/** A value of this answer, as stored blocks. */
export const storedPiece = (raw: Buffer): Piece => ({ raw, stored: Buffer.concat(storedBlocks(raw)) });

/** Stored blocks (at most 65,535 bytes each), not the last: byte-aligned as a sync flush leaves the stream. */
function storedBlocks(raw: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let at = 0; at < raw.length; at += 0xffff) {
    const data = raw.subarray(at, at + 0xffff);
    const header = Buffer.alloc(5);
    header.writeUInt16LE(data.length, 1);
    header.writeUInt16LE(~data.length & 0xffff, 3);
    blocks.push(header, data);
  }
  return blocks;
}

const gzipHeader = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty stored block marked last. */
const lastBlock = Buffer.from([1, 0, 0, 0xff, 0xff]);

export function gzipPieces(pieces: readonly Piece[]): Buffer {
  const body: Buffer[] = [gzipHeader];
  let crc = 0;
  let size = 0;
  for (const { raw, fixed, stored } of pieces) {
    if (fixed) {
      body.push(fixed.deflated);
      crc = (multiplyModP(fixed.shift, crc) ^ fixed.crc) >>> 0;
    } else {
      body.push(...(stored ? [stored] : storedBlocks(raw)));
      crc = zlib.crc32(raw, crc);
    }
    size += raw.length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  return Buffer.concat([...body, lastBlock, trailer]);
}

// The CRC-32 of a fixed piece after what came before it, from the two CRCs (zlib's crc32_combine, which Node does
// not expose): the page's CRC over all its bytes per answer was a tenth of a filled page's CPU.
const reversedPolynomial = 0xedb88320;

/** a × b modulo the CRC-32 polynomial, bits reflected (zlib's multmodp). */
function multiplyModP(a: number, b: number): number {
  let product = 0;
  for (let bit = 0x80000000; bit !== 0; bit >>>= 1) {
    if (a & bit) {
      product ^= b;
      if ((a & (bit - 1)) === 0) break;
    }
    b = b & 1 ? (b >>> 1) ^ reversedPolynomial : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^n) modulo the polynomial, for n = 0…31. */
const powersOfX: number[] = [];
for (let power = 0x40000000, n = 0; n < 32; n += 1, power = multiplyModP(power, power)) powersOfX.push(power);

/** The factor that moves a CRC past `bytes` zero bytes: x^(8 × bytes) modulo the polynomial (zlib's x2nmodp(bytes, 3)). */
function crcShift(bytes: number): number {
  let factor = 0x80000000;
  for (let n = bytes, k = 3; n > 0; n = Math.floor(n / 2), k += 1) if (n % 2) factor = multiplyModP(powersOfX[k & 31]!, factor);
  return factor;
}
