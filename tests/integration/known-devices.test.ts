import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";
import { verifiedAccount as createVerifiedAccount } from "./factories";

// The new-device notice (known-devices.server.ts) on a device id the client chose: only an id the server issued
// for that very account counts as a known browser (issue 25 item 4).

const password = "lantern-harbour-9";

describeEachDatabase("known devices", (database) => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer(database());
  });
  afterAll(async () => {
    await server.close();
  });

  const verifiedAccount = async () => (await createVerifiedAccount(server, { prefix: "device", name: "林爸爸", password })).email;
  const signIn = async (client: AuthTestClient, email: string) => expect((await client.post("/sign-in/email", { email, password })).status).toBe(200);
  const deviceCookie = (client: AuthTestClient) => [...client.cookies].find(([name]) => name.endsWith("known_device")) ?? ["", ""];
  const notices = async (email: string) => {
    // Mail goes out in the background: give it a moment before counting.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const mails = await server.service.database.db.selectFrom("dev_mail").select("subject").where("recipient", "=", email).execute();
    return mails.filter((mail) => /新裝置登入/.test(mail.subject)).length;
  };

  it("ignores a device id the client chose, and one the server issued to another account", async () => {
    const email = await verifiedAccount();
    const parent = server.client();
    await signIn(parent, email);
    const [name] = deviceCookie(parent);
    expect(name).not.toBe("");
    const before = await notices(email);

    // A value planted in the parent's browser (a sibling host can set cookies for the site) before a sign-in.
    const chosen = "A".repeat(32);
    const planted = server.client();
    planted.cookies.set(name, chosen);
    await signIn(planted, email);
    expect(deviceCookie(planted)[1]).not.toBe(chosen);
    const attacker = server.client();
    attacker.cookies.set(name, chosen);
    await signIn(attacker, email);
    expect(await notices(email)).toBe(before + 2);

    // A value the server really issued, but to the attacker's own account.
    const ownEmail = await verifiedAccount();
    const own = server.client();
    await signIn(own, ownEmail);
    const issuedElsewhere = deviceCookie(own)[1];
    const borrowed = server.client();
    borrowed.cookies.set(name, issuedElsewhere);
    await signIn(borrowed, email);
    expect(await notices(email)).toBe(before + 3);
  });

  it("still knows a browser it issued the id to, for each account signed in on it", async () => {
    const [first, second] = [await verifiedAccount(), await verifiedAccount()];
    const tablet = server.client();
    await signIn(tablet, first);
    await signIn(tablet, second);
    const counts = [await notices(first), await notices(second)];
    for (const email of [first, second, first, second]) {
      for (const [cookie] of tablet.cookies) if (cookie.endsWith("session_token")) tablet.cookies.delete(cookie);
      await signIn(tablet, email);
    }
    expect([await notices(first), await notices(second)]).toEqual(counts);
  });

  it("texts the notice to the account's verified number too, as its user row carries it", async () => {
    const email = await verifiedAccount();
    const phoneNumber = `+8869${String(Date.now()).slice(-8)}`;
    await server.service.database.db.updateTable("user").set({ phoneNumber, phoneNumberVerified: database().handle.dialect === "postgres" ? true : 1 } as never).where("email", "=", email).execute();
    // The account began in another browser (its sign-up): this one is new.
    await signIn(server.client(), email);
    const texts = await server.service.database.db.selectFrom("mail_outbox").select("text").where("recipient", "=", phoneNumber).execute();
    expect(texts.filter((text) => /新裝置登入/.test(text.text))).toHaveLength(1);
  });
});
