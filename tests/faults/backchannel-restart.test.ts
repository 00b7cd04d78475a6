import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/connection.server";
import { startBackchannelReceiver, type BackchannelReceiver } from "~tests/fixtures/backchannel-receiver";
import { siteUrl, startSite, type SiteProcess } from "./site-process";
import { appClient, send, signInApp } from "./app-sign-in-client";

/**
 * Back-channel logout is not lost when the site dies (decision 190): the notice of a sign-in that ended while the
 * app's backend was down waits in the outbox through a kill -9, and the restarted instance delivers it, freshly
 * signed, once the backend answers. The built site on SQLite; the backend is a verifying receiver on loopback.
 */
describe("a back-channel notice survives a kill -9 (SQLite)", () => {
  let receiver: BackchannelReceiver;
  let current: SiteProcess | undefined;
  const sites: SiteProcess[] = [];

  beforeAll(async () => {
    receiver = await startBackchannelReceiver({ issuer: () => siteUrl, audience: "app", reachAt: () => current!.baseURL });
  });
  afterAll(async () => {
    await Promise.all(sites.map((site) => site.stop("SIGKILL")));
    await receiver?.close();
  });

  const start = async (dataDir?: string) => {
    current = await startSite({ OIDC_CLIENTS: JSON.stringify([{ ...appClient, backchannel_logout_uri: receiver.uri }]) }, { dataDir });
    sites.push(current);
    return current;
  };

  it("is delivered by the restarted instance once the app's backend is back", async () => {
    const first = await start();
    const { tokens } = await signInApp(first.baseURL, { site: siteUrl });
    const { sid, sub } = decodeJwt(tokens.id_token);
    receiver.down = true;
    const revoked = await send(`${first.baseURL}/oidc/token/revocation`, { form: { token: tokens.refresh_token, token_type_hint: "refresh_token", client_id: "app" } });
    expect(revoked.status).toBe(200);
    // The first attempt found the backend down.
    const deadline = Date.now() + 15_000;
    while (receiver.turnedAway === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.turnedAway).toBeGreaterThan(0);
    // Killed once the site has written the failed attempt down (its retry in 5 s). Killed between the backend's
    // refusal and that write, the row would keep its delivery lease (60 s) before another instance may try it.
    const { db } = openDatabase({ dataDir: first.dataDir });
    try {
      const failedAttempt = () => db.selectFrom("mail_outbox").select("id").where("last_error", "is not", null).where("sent_at", "is", null).executeTakeFirst();
      await expect.poll(failedAttempt, { timeout: 15_000 }).toBeTruthy();
    } finally {
      await db.destroy();
    }

    await first.stop("SIGKILL");
    // The backend comes back once the new instance is up (the receiver checks each token against the running
    // instance's keys, which it can only reach once the instance has started).
    await start(first.dataDir);
    receiver.down = false;
    expect(await receiver.waitFor((token) => token.sid === sid, 60_000)).toMatchObject({ iss: siteUrl, aud: "app", sub, sid });
    expect(receiver.received.filter((token) => token.sid === sid)).toHaveLength(1);
  }, 120_000);
});
