import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hashThreads } from "~/features/auth/hash-threads.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestServer } from "./auth-server";
import { newEmail, verifiedAccount } from "./factories";

describeEachDatabase("a password's hash", (database) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(database());
  });
  afterAll(async () => {
    await server.close();
  });

  // A password sign-in is one argon2id job, begun by the password way in's hook once the rules have passed and taken
  // by the endpoint's own call (decision 715): never two, whatever the answer, and never one for a body the endpoint
  // refuses unhashed.
  describe("at sign-in", () => {
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

  // Better Auth's sign-up hashes inside its transaction; the password way in's hook hashes first, outside it, so that
  // a sign-up does not hold SQLite's one connection for its whole hash and sign-ups hash side by side.
  describe("at sign-up", () => {
    /**
     * The argon2id hashes `work` asks for, and how many ran at once at most. With `waitForSecond`, the first hash waits
     * (up to 5 s) for a second one to be asked before it runs: two sign-ups that can hash side by side always do.
     */
    async function hashesOf(work: () => Promise<void>, { waitForSecond = false } = {}): Promise<{ jobs: number; atOnce: number }> {
      const original = hashThreads.hash.bind(hashThreads);
      let running = 0;
      let atOnce = 0;
      let secondAsked: () => void = () => {};
      const second = new Promise<void>((resolve) => (secondAsked = resolve));
      const hash = vi.spyOn(hashThreads, "hash").mockImplementation(async (password, options) => {
        running += 1;
        atOnce = Math.max(atOnce, running);
        if (running === 2) secondAsked();
        try {
          if (waitForSecond && running === 1) await Promise.race([second, new Promise((resolve) => setTimeout(resolve, 5000))]);
          return await original(password, options);
        } finally {
          running -= 1;
        }
      });
      try {
        await work();
        return { jobs: hash.mock.calls.length, atOnce };
      } finally {
        hash.mockRestore();
      }
    }
    const signUp = (body: Record<string, unknown>) => server.client().post("/sign-up/email", body);
    const password = "lantern-harbour-9";

    it("is one hash for a new address, none for a taken one or a body the endpoint refuses", async () => {
      const email = newEmail("sign-up-hash");
      expect(await hashesOf(async () => expect((await signUp({ email, password, name: "媽媽" })).status).toBe(200))).toMatchObject({ jobs: 1 });
      // The endpoint refuses a taken address without a hash (the answer names it as taken).
      expect(await hashesOf(async () => expect((await signUp({ email, password, name: "媽媽" })).status).toBe(422))).toMatchObject({ jobs: 0 });
      const refusedBodies = [
        { email: "not-an-address", password, name: "媽媽" },
        { email: newEmail("short"), password: "short", name: "媽媽" },
        { email: newEmail("remember"), password, name: "媽媽", rememberMe: "yes" },
        { email: newEmail("image"), password, name: "媽媽", image: 5 },
      ];
      for (const body of refusedBodies) {
        const refused = await hashesOf(async () => expect((await signUp(body)).status, JSON.stringify(body)).toBe(400));
        expect(refused.jobs, JSON.stringify(body)).toBe(0);
      }
    });

    it("hashes two sign-ups side by side, none holding the database for its hash", async () => {
      const both = await hashesOf(
        async () => {
          const answers = await Promise.all([1, 2].map((n) => signUp({ email: newEmail(`side-${n}`), password, name: "爸爸" })));
          expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
        },
        { waitForSecond: true },
      );
      expect(both).toEqual({ jobs: 2, atOnce: 2 });
    });
  });
});
