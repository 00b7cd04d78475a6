// A parent's filled pages as the host keeps them (decision 714): one nonce and one policy per page, the same bytes
// again, the whole page compressed once it is asked for again, and the bounds.
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { inlineHashes } from "~/features/security/csp.server";
import type { FilledPage } from "~/features/shell/signed-in-pages.server";
import { filledPageAnswers } from "./signed-in-pages";

const headerOptions = { https: true, cspHashes: { pages: {}, styles: ["sha256-start-up-style"] }, analytics: false, formTargets: [], frames: [] };

/** Text that compresses about as little as a page's words: CJK characters from a fixed sequence. */
function words(characters: number, seed: number): string {
  let state = seed;
  return Array.from({ length: characters }, () => String.fromCodePoint(0x4e00 + ((state = (state * 48_271) % 2_147_483_647) % 2_000))).join("");
}

/** A page of about `characters` characters whose data script names its parent; counts what it was asked to make. */
function fakePage(key: string, characters = 4_000) {
  const made = { html: 0, gzip: 0, hashes: 0 };
  const text = words(characters, key.codePointAt(0)!);
  const html = (nonce: string) => `<html><body><p>${text}</p><script nonce="${nonce}">enqueue("${key}")</script></body></html>`;
  const page: FilledPage = {
    key,
    html: (nonce) => ((made.html += 1), html(nonce)),
    // Stands for the template's pieces: a level-1 gzip, larger than the whole page's at level 6.
    gzip: (nonce) => ((made.gzip += 1), zlib.gzipSync(html(nonce), { level: 1 })),
    hashes: (nonce) => ((made.hashes += 1), inlineHashes(html(nonce))),
  };
  return { page, made };
}

const until = async (done: () => boolean) => {
  for (let waited = 0; !done() && waited < 2_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe("a parent's kept pages", () => {
  it("are one nonce and one policy of their own scripts' hashes, the same bytes on every answer, smaller once compressed whole", async () => {
    const answers = filledPageAnswers({ headers: headerOptions, maxEntries: 10, maxBytes: 1_000_000 });
    const { page, made } = fakePage("mei");
    const first = answers(page, "gzip, br");
    const html = zlib.gunzipSync(first.body as Buffer).toString();
    const nonce = / nonce="([^"]+)"/.exec(html)![1]!;
    const policy = first.headers["Content-Security-Policy"]!;
    expect(policy).not.toContain(nonce);
    expect(policy).toContain(`script-src '${inlineHashes(html).scripts[0]}' 'strict-dynamic'`);
    expect(policy).toContain("'sha256-start-up-style'");
    expect(first.headers).toMatchObject({ "Content-Encoding": "gzip", "Cache-Control": "private, no-cache", Vary: "Accept-Encoding" });

    // Asked again: the same bytes, and the whole page compressed behind it for the next answers.
    expect(answers(page, "gzip").body).toBe(first.body);
    await until(() => answers(page, "gzip").body !== first.body);
    const whole = answers(page, "gzip");
    expect(zlib.gunzipSync(whole.body as Buffer).toString()).toBe(html);
    expect((whole.body as Buffer).length).toBeLessThan((first.body as Buffer).length);
    expect(whole.headers["Content-Length"]).toBe(String((whole.body as Buffer).length));
    expect(whole.headers["Content-Security-Policy"]).toBe(policy);

    // A client without gzip gets the same page as text, with the same nonce and policy.
    const plain = answers(page, undefined);
    expect(plain.body).toBe(html);
    expect(plain.headers["Content-Security-Policy"]).toBe(policy);
    expect(made.hashes).toBe(1);
    expect(made.gzip).toBe(1);
  });

  it("keep at most their count and about their bytes, the oldest going first", async () => {
    type Answers = ReturnType<typeof filledPageAnswers>;
    /** Three pages asked in turn, then the last two again (still kept: made once), then the first (made again). */
    const expectFirstPushedOut = (answers: Answers, pages: ReturnType<typeof fakePage>[]) => {
      for (const { made } of pages) made.hashes = 0;
      for (const { page } of pages) answers(page, "gzip");
      answers(pages[2]!.page, "gzip");
      answers(pages[1]!.page, "gzip");
      expect(pages.map(({ made }) => made.hashes)).toEqual([1, 1, 1]);
      answers(pages[0]!.page, "gzip");
      expect(pages[0]!.made.hashes).toBe(2);
    };
    expectFirstPushedOut(filledPageAnswers({ headers: headerOptions, maxEntries: 2, maxBytes: 10_000_000 }), ["a", "b", "c"].map((key) => fakePage(key)));

    // Three pages where two fit.
    const large = ["x", "y", "z"].map((key) => fakePage(key));
    const kept = (answer: ReturnType<Answers>) => (answer.body as Buffer).length + 2 * (1 + answer.headers["Content-Security-Policy"]!.length);
    const probe = filledPageAnswers({ headers: headerOptions, maxEntries: 100, maxBytes: 10_000_000 });
    const [x, y, z] = large.map(({ page }) => kept(probe(page, "gzip")));
    expect(Math.min(x!, y!, z!)).toBeGreaterThan(3_000);
    expectFirstPushedOut(filledPageAnswers({ headers: headerOptions, maxEntries: 100, maxBytes: y! + z! + 100 }), large);
  });
});
