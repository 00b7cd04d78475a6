import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { fixedPiece, fixedPieces, gzipPieces, storedPiece } from "./gzip-pieces.server";

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

  it("compresses fixed pieces against the pieces before them, across values of a known length, never into a value", () => {
    // A page's parts repeat each other (the same markup around each script); between them a nonce of a known length
    // (new in every answer) and, once, a name of any length.
    const part = (index: number) => Buffer.from(`<script nonce="`.padStart(60 + index, " ") + `">${"window.__page.enqueue(".repeat(40)}${index}</script><p>家長的頁面 ${index}</p>`);
    const raws = Array.from({ length: 12 }, (_, index) => part(index));
    const gaps = raws.slice(1).map((_, index) => (index === 5 ? null : 24));
    const withDictionaries = fixedPieces(raws, gaps);
    const alone = raws.map((raw) => fixedPiece(raw));
    const size = (pieces: typeof alone) => pieces.reduce((total, piece) => total + piece.fixed!.deflated.length, 0);
    expect(size(withDictionaries)).toBeLessThan(size(alone) / 2);
    for (let answer = 0; answer < 3; answer += 1) {
      const values = gaps.map((gap) => storedPiece(gap === null ? Buffer.from("王".repeat(answer * 7 + 1)) : Buffer.from(randomBytes(18).toString("base64"))));
      const pieces = withDictionaries.flatMap((piece, index) => (values[index] ? [piece, values[index]] : [piece]));
      expect(zlib.gunzipSync(gzipPieces(pieces)).equals(Buffer.concat(pieces.map(({ raw }) => raw)))).toBe(true);
    }
    // A piece holding a NUL could point into a value's mask: each is then compressed alone.
    const withNul = [Buffer.from([0x61, 0, 0x62]), ...raws.slice(1, 3)];
    expect(fixedPieces(withNul, [24, 24]).map((piece) => piece.fixed!.deflated)).toEqual(withNul.map((raw) => fixedPiece(raw).fixed!.deflated));
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
