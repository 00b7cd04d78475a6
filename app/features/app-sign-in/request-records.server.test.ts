import requests from "oidc-provider/lib/helpers/als.js";
import { describe, expect, it } from "vitest";
import { forgetReads, heldWrites, holdWrites, readsOfThisRequest } from "./request-records.server";

const row = { payload: "{}", expires_at: Date.now() + 60_000, consumed_at: null };
const inRequest = <T>(work: () => T) => requests.run({}, work);

describe("what one provider request has read of the records", () => {
  it("is kept for that request only, and forgotten at its writes", () => {
    inRequest(() => {
      readsOfThisRequest()!.rows.set("Grant:a", row);
      expect(readsOfThisRequest()!.rows.get("Grant:a")).toBe(row);
      // Another request (another context) never sees it.
      inRequest(() => expect(readsOfThisRequest()!.rows.size).toBe(0));
      forgetReads();
      expect(readsOfThisRequest()!.rows.size).toBe(0);
    });
    // Outside a provider request nothing is kept.
    expect(readsOfThisRequest()).toBeUndefined();
  });

  it("holds writes back during a rotation only, and hands over none of a failed one", async () => {
    await inRequest(async () => {
      const { held, answer } = await holdWrites(async () => {
        heldWrites()!.rows.set("RefreshToken:b", { kind: "RefreshToken", id: "b", payload: "{}", grant_id: null, uid: null, expires_at: 1 });
        return "answered";
      });
      expect([answer, [...held.rows.keys()]]).toEqual(["answered", ["RefreshToken:b"]]);
      expect(heldWrites()).toBeUndefined();
      await expect(holdWrites(async () => Promise.reject(new Error("the handler failed")))).rejects.toThrow("the handler failed");
      expect(heldWrites()).toBeUndefined();
    });
    await expect(holdWrites(async () => "outside")).rejects.toThrow(/inside a provider request/);
  });
});
