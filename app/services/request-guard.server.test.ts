import { describe, expect, it } from "vitest";
import { getEnv, parseEnv } from "~/config/env.server";
import { currentRequestErrors, runWithRequestContext } from "./request-context.server";
import { guardedEndpoint, guardedForm, originRule, RequestRefused } from "./request-guard.server";

const site = new URL(getEnv().SITE_URL).origin;
const post = (headers: Record<string, string> = {}) => new Request(`${site}/api/thing`, { method: "POST", headers });
const body = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

describe("the trusted-Origin rule", () => {
  const rule = originRule(parseEnv({ SITE_URL: "http://localhost:4100", APP_URL: "http://localhost:4200", REDIS_URL: "" }));
  const from = (origin?: string) => new Request("http://localhost:4100/v0/b/default/o", { method: "DELETE", headers: origin ? { origin } : {} });

  it("trusts the site and the app, compared as origins", () => {
    for (const origin of ["http://localhost:4100", "http://localhost:4200", "http://LOCALHOST:4100"]) {
      expect(rule.isTrusted(from(origin)), origin).toBe(true);
      expect(rule.isForeign(from(origin)), origin).toBe(false);
    }
  });

  it("calls any other named Origin foreign, and a request without one neither trusted nor foreign", () => {
    for (const origin of ["https://evil.example", "https://localhost:4100", "http://localhost:4101", "null", "not a url"]) {
      expect(rule.isTrusted(from(origin)), origin).toBe(false);
      expect(rule.isForeign(from(origin)), origin).toBe(true);
    }
    expect(rule.isTrusted(from())).toBe(false);
    expect(rule.isForeign(from())).toBe(false);
  });
});

describe("a guarded endpoint", () => {
  const signedIn = { id: "u1" };
  const requireSignedIn = async (request: Request) => {
    if (!request.headers.has("cookie")) throw new RequestRefused(401, "sign-in-required", "請先登入。");
    return signedIn;
  };
  const endpoint = guardedEndpoint({ methods: ["POST"], viewer: requireSignedIn }, async (_request, viewer) => Response.json({ viewer }));

  it("hands the viewer to the handler, and answers the viewer's refusal in the one JSON shape", async () => {
    expect(await (await endpoint(post({ cookie: "s=1", origin: site }))).json()).toEqual({ viewer: signedIn });
    const refused = await endpoint(post({ origin: site }));
    expect(refused.status).toBe(401);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(await body(refused)).toEqual({ code: "sign-in-required", message: "請先登入。" });
  });

  it("refuses other methods and foreign origins before asking for the viewer", async () => {
    const wrongMethod = await endpoint(new Request(`${site}/api/thing`));
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
    const foreign = await endpoint(post({ cookie: "s=1", origin: "https://evil.example" }));
    expect(foreign.status).toBe(403);
    expect((await body(foreign)).code).toBe("foreign-origin");
  });

  it("answers an unexpected failure with 500 in the one shape and notes it for the request log", async () => {
    const failure = new Error("the database is gone");
    const failing = guardedEndpoint({ methods: ["POST"] }, async () => {
      throw failure;
    });
    const context = { id: "request-1", errors: [] as unknown[] };
    const answer = await runWithRequestContext(context, async () => {
      const response = await failing(post());
      expect(currentRequestErrors()).toEqual([failure]);
      return response;
    });
    expect(answer.status).toBe(500);
    expect(await body(answer)).toEqual({ code: "internal-error", message: "伺服器發生錯誤，請稍後再試。" });
  });
});

describe("a guarded form action", () => {
  it("answers a foreign Origin and the viewer's refusal in the form kit's result shape", async () => {
    const foreign = await guardedForm(post({ origin: "https://evil.example" }), async () => "done");
    expect(foreign).toMatchObject({ data: { code: "foreign-origin", formError: "只接受本網站送出的表單。" }, init: { status: 403 } });
    const refused = await guardedForm(post({ origin: site }), async () => {
      throw new RequestRefused(403, "forbidden", "你沒有權限進行這個操作。");
    });
    expect(refused).toMatchObject({ data: { code: "forbidden", formError: "你沒有權限進行這個操作。" }, init: { status: 403 } });
    expect(await guardedForm(post(), async () => "done")).toBe("done");
  });

  it("lets a thrown redirect through to React Router", async () => {
    const redirect = new Response(null, { status: 302, headers: { location: "/login" } });
    await expect(
      guardedForm(post({ origin: site }), async () => {
        throw redirect;
      }),
    ).rejects.toBe(redirect);
  });
});
