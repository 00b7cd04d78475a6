import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_FORM_BYTES, parseForm, readForm } from "./form.server";

const post = (type: string | null, body: BodyInit, extra: Record<string, string> = {}) =>
  new Request("http://localhost/form", { method: "POST", headers: { ...(type ? { "content-type": type } : {}), ...extra }, body });

/** What a thrown `data()` answer carries. */
async function refusal(promise: Promise<unknown>) {
  const thrown = (await promise.then(
    () => null,
    (error: unknown) => error,
  )) as { type?: string; init?: { status?: number }; data?: { formError?: string; code?: string } } | null;
  expect(thrown?.type).toBe("DataWithResponseInit");
  return { status: thrown!.init?.status, ...thrown!.data };
}

// The form kit's server half: a body that is not a form is the sender's mistake, answered in Chinese, never 5xx.
describe("readForm", () => {
  it.each([
    ["application/json", "{"],
    ["text/plain", "\u0000\u0001"],
    [null, "x=1"],
  ])("answers 415 to %s", async (type, body) => {
    const answer = await refusal(readForm(post(type, body)));
    expect(answer).toMatchObject({ status: 415, code: "form/unsupported-media-type" });
    expect(answer.formError).toMatch(/網頁表單/);
  });

  it("answers 400 to a multipart body without its boundary or with broken bytes", async () => {
    expect(await refusal(readForm(post("multipart/form-data; boundary=x", "{")))).toMatchObject({ status: 400, code: "form/malformed" });
    expect(await refusal(readForm(post("multipart/form-data", "--x\r\n")))).toMatchObject({ status: 400, code: "form/malformed" });
  });

  it("answers 413 to a form larger than its ceiling", async () => {
    const body = `text=${"a".repeat(MAX_FORM_BYTES + 1)}`;
    const answer = await refusal(readForm(post("application/x-www-form-urlencoded", body, { "content-length": String(body.length) })));
    expect(answer).toMatchObject({ status: 413, code: "form/too-large" });
  });

  it("reads a form's text fields, the first of each name", async () => {
    expect(await readForm(post("application/x-www-form-urlencoded; charset=UTF-8", "a=1&b=%E4%BD%A0&a=2"))).toEqual({ a: "1", b: "你" });
  });
});

describe("parseForm", () => {
  const schema = z.object({ title: z.string().trim().min(1, "請輸入標題") });
  it("answers the parsed value, or a 400 result naming the wrong field with the typed values kept", async () => {
    expect((await parseForm(post("application/x-www-form-urlencoded", "title=%20hi"), schema)).value).toEqual({ title: "hi" });
    const { invalid } = await parseForm(post("application/x-www-form-urlencoded", "title=&note=x"), schema, (fields) => ({ note: fields.note ?? "" }));
    expect(invalid?.init?.status).toBe(400);
    expect(invalid?.data).toMatchObject({ fieldErrors: { title: "請輸入標題" }, values: { note: "x" } });
  });
});
