import zlib from "node:zlib";

/**
 * One gzip stream made of pieces: the fixed ones compressed once (raw deflate ending in a sync flush, so that any
 * block may follow), the others per answer as stored blocks. A signed-in page's template is the same for everyone
 * but a few short values (signed-in-pages.server.ts): gzipping the whole page per request was most of its cost.
 */
export interface Piece {
  raw: Buffer;
  /** The piece compressed once by `deflateOnce`; absent for a value stored as it is. */
  deflated?: Buffer;
}

export const deflateOnce = (raw: Buffer) => zlib.deflateRawSync(raw, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });

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
  for (const { raw, deflated } of pieces) {
    body.push(...(deflated ? [deflated] : storedBlocks(raw)));
    crc = zlib.crc32(raw, crc);
    size += raw.length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  return Buffer.concat([...body, lastBlock, trailer]);
}
