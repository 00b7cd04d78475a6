import { describe, expect, it, vi } from "vitest";
import type { SessionUser } from "~/features/auth";
import { cspNonceHeader, inlineHashes } from "~/features/security/csp.server";
import { signedInPages, templateUserOf, templateVariantOf, type PageVariants } from "./signed-in-pages.server";

// The parent behind every request of this file; the session read itself is tested with the real database elsewhere.
const parent: SessionUser = { uid: "u-1", email: "mei@example.tw", displayName: "林小美", emailVerified: true, isAnonymous: false, photoURL: null };
vi.mock("~/features/auth/index.server", () => ({
  getServerSessionUser: async () => parent,
  getAuthService: () => {
    throw new Error("not read in this file");
  },
  sessionUserOf: () => null,
}));

/** A page of about 16,000 characters with the user's name in markup and their id in the data script. */
function fakeRenderer() {
  const rendered: (string | null)[] = [];
  const render = async (request: Request) => {
    const user = templateUserOf(request)!;
    rendered.push(templateVariantOf(request));
    const nonce = request.headers.get(cspNonceHeader);
    const data = `<script nonce="${nonce}">window.__reactRouterContext.streamController.enqueue("${user.uid}","${user.displayName}")</script>`;
    const page = `<html><head><style nonce="${nonce}">p{color:red}</style><script nonce="${nonce}">window.fixed=1</script></head><body><p>${user.displayName}</p>${"<i>家</i>".repeat(2_000)}${data}</body></html>`;
    return new Response(page, { status: 200, headers: { "content-type": "text/html" } });
  };
  return { render, rendered };
}

/** A page whose variant is its `k` parameter, at the state `version`. */
function variantsAt(version: { current: number }): PageVariants {
  return {
    takes: (pathname) => pathname === "/board",
    variantOf: async (_userId, url) => {
      const key = new URLSearchParams(url.search).get("k") ?? "";
      return { key, version: version.current, hint: key };
    },
  };
}

describe("a page's variant templates", () => {
  const site = "http://localhost:4210";
  const ask = (pages: ReturnType<typeof signedInPages>, k: string) => {
    const url = new URL(`/board?k=${k}`, site);
    return pages.answer(new Request(url), url);
  };

  it("are filled in with the parent and a given nonce, made once, and kept within their bytes, the oldest going first", async () => {
    const { render, rendered } = fakeRenderer();
    // About 80 KB a template (five bytes a character): two fit, a third pushes the oldest out.
    const pages = signedInPages({ render, siteUrl: site, paths: new Set(), variants: variantsAt({ current: 1 }), variantSeconds: 60, variantMaxBytes: 200_000 });
    const first = await ask(pages, "1");
    expect(first?.html("nonce-of-this-answer")).toContain("<p>林小美</p>");
    expect(first?.html("nonce-of-this-answer")).toContain('<script nonce="nonce-of-this-answer">');
    expect(first?.html("nonce-of-this-answer")).toContain('enqueue("u-1","林小美")');
    await ask(pages, "2");
    await ask(pages, "1");
    expect(rendered).toEqual(["1", "2"]);
    await ask(pages, "3");
    await ask(pages, "2");
    expect(rendered).toEqual(["1", "2", "3"]);
    await ask(pages, "1");
    expect(rendered).toEqual(["1", "2", "3", "1"]);
  });

  it("are replaced, not added to, when the page's state moves on", async () => {
    const { render, rendered } = fakeRenderer();
    const version = { current: 1 };
    const pages = signedInPages({ render, siteUrl: site, paths: new Set(), variants: variantsAt(version), variantSeconds: 60, variantMaxBytes: 200_000 });
    await ask(pages, "1");
    version.current = 2;
    await ask(pages, "1");
    await ask(pages, "2");
    // Two templates' bytes, not three: the first one's new state is still kept.
    await ask(pages, "1");
    expect(rendered).toEqual(["1", "1", "2"]);
  });

  it("name the filled page's own inline scripts and styles by their hashes, whatever the parent's values hold", async () => {
    const { render } = fakeRenderer();
    const pages = signedInPages({ render, siteUrl: site, paths: new Set(), variants: variantsAt({ current: 1 }), variantSeconds: 60 });
    const named = parent.displayName;
    try {
      for (const name of ["林小美", `王<小明>&"'\\ \u2028🐉`]) {
        parent.displayName = name;
        const filled = (await ask(pages, "1"))!;
        const html = filled.html("a-nonce");
        expect(filled.hashes("a-nonce")).toEqual({ scripts: expect.arrayContaining(inlineHashes(html).scripts), styles: inlineHashes(html).styles });
        expect(filled.hashes("a-nonce").scripts).toHaveLength(2);
      }
    } finally {
      parent.displayName = named;
    }
  });

  it("are not made of a page with a parent's value in a style's text (its hash is made once per template)", async () => {
    const render = async (request: Request) => {
      const user = templateUserOf(request)!;
      const nonce = request.headers.get(cspNonceHeader);
      return new Response(`<html><head><style nonce="${nonce}">p::before{content:"${user.displayName}"}</style></head><body><p>${user.displayName}</p></body></html>`, { status: 200 });
    };
    const pages = signedInPages({ render, siteUrl: site, paths: new Set(), variants: variantsAt({ current: 1 }), variantSeconds: 60 });
    expect(await ask(pages, "1")).toBeNull();
  });
});
