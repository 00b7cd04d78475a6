import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { deflateOnce, gzipPieces } from "./gzip-pieces.server";

describe("a gzip stream of fixed and stored pieces", () => {
  it("decompresses to the pieces in order, whatever their size and content", () => {
    const fixed = ["<!DOCTYPE html><p>", "</p>".repeat(20_000), ""].map((text) => Buffer.from(text));
    const values = ["王<小明>&\"' 🐉", "x".repeat(70_000), ""].map((text) => Buffer.from(text));
    const pieces = fixed.flatMap((raw, index) => [{ raw, deflated: deflateOnce(raw) }, { raw: values[index]! }]);
    const gzipped = gzipPieces(pieces);
    expect(zlib.gunzipSync(gzipped).equals(Buffer.concat(pieces.map(({ raw }) => raw)))).toBe(true);
    expect(gzipped.length).toBeLessThan(Buffer.concat(pieces.map(({ raw }) => raw)).length / 2);
  });
});
