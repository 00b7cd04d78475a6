import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { fixedPiece, gzipPieces, storedPiece } from "./gzip-pieces.server";

describe("a gzip stream of fixed and stored pieces", () => {
  it("decompresses to the pieces in order, whatever their size and content", () => {
    const fixed = ["<!DOCTYPE html><p>", "</p>".repeat(20_000), ""].map((text) => Buffer.from(text));
    const values = ["王<小明>&\"' 🐉", "x".repeat(70_000), ""].map((text) => Buffer.from(text));
    // A value as it is, and the same value's stored blocks made once.
    const pieces = fixed.flatMap((raw, index) => [fixedPiece(raw), index % 2 ? storedPiece(values[index]!) : { raw: values[index]! }]);
    const gzipped = gzipPieces(pieces);
    // gunzip checks the trailer's CRC-32 and length, so a wrong combination of the fixed pieces' CRCs fails here.
    expect(zlib.gunzipSync(gzipped).equals(Buffer.concat(pieces.map(({ raw }) => raw)))).toBe(true);
    expect(gzipped.length).toBeLessThan(Buffer.concat(pieces.map(({ raw }) => raw)).length / 2);
  });

  it("carries the CRC-32 of the whole, fixed pieces of any length included", () => {
    for (const lengths of [[1, 0, 3], [65_536, 7, 131_071], [255, 256, 257, 1_000_003]]) {
      const pieces = lengths.map((length, index) => {
        const raw = Buffer.alloc(length, index * 37 + 11);
        return index % 2 ? { raw } : fixedPiece(raw);
      });
      const gzipped = gzipPieces(pieces);
      expect(gzipped.readUInt32LE(gzipped.length - 8)).toBe(zlib.crc32(Buffer.concat(pieces.map(({ raw }) => raw))));
    }
  });
});
