import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { hashThreads } from "~/features/auth/hash-threads.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestServer } from "./auth-server";
import { newEmail, verifiedAccount } from "./factories";

// A password sign-in is one argon2id job, begun by the password way in's hook once the rules have passed and taken
// by the endpoint's own call (decision 715): never two, whatever the answer, and never one for a body the endpoint
// refuses unhashed.
describeEachDatabase("a password sign-in's hash", (database) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(database());
  });
  afterAll(async () => {
    await server.close();
  });

  /** The argon2id jobs `work` posts to the hash threads, as [kind, …]. */
  async function jobsOf(work: () => Promise<void>): Promise<string[]> {
    const verify = vi.spyOn(hashThreads, "verify");
    const hash = vi.spyOn(hashThreads, "hash");
    try {
      await work();
      return [...verify.mock.calls.map(() => "verify"), ...hash.mock.calls.map(() => "hash")];
    } finally {
      verify.mockRestore();
      hash.mockRestore();
    }
  }

  it("is one job for a right password, a wrong one and an unknown address, each with its answer", async () => {
    const { email, password } = await verifiedAccount(server, { prefix: "one-hash" });
    const signIn = (body: Record<string, unknown>) => server.client().post("/sign-in/email", body);
    expect(await jobsOf(async () => expect((await signIn({ email, password })).status).toBe(200))).toEqual(["verify"]);
    expect(await jobsOf(async () => expect((await signIn({ email, password: "not-the-password-1" })).status).toBe(401))).toEqual(["verify"]);
    // Typed in capitals: the endpoint reads the same account, and takes the same job.
    expect(await jobsOf(async () => expect((await signIn({ email: email.toUpperCase(), password })).status).toBe(200))).toEqual(["verify"]);
    // An unknown address: the endpoint's own hash, so that it takes as long.
    expect(await jobsOf(async () => expect((await signIn({ email: newEmail("nobody"), password })).status).toBe(401))).toEqual(["hash"]);
  });

  it("is no job for a body the endpoint refuses before it hashes", async () => {
    const { email, password } = await verifiedAccount(server, { prefix: "no-hash" });
    for (const body of [{ email, password, rememberMe: "yes" }, { email, password, callbackURL: 7 }, { email: "not-an-address", password }]) {
      const jobs = await jobsOf(async () => expect((await server.client().post("/sign-in/email", body)).status, JSON.stringify(body)).toBe(400));
      expect(jobs, JSON.stringify(body)).toEqual([]);
    }
  });
});
