import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseBoardQuery } from "~/features/wishes/wish-rules";
import { registerUserDataHandler } from "~/features/auth/index.server";
import { createWishService, type ActionResult, type WishService, type WishViewer } from "~/features/wishes/wish-service.server";
import { wishUserData } from "~/features/wishes/wish-user-data.server";
import { listMailbox } from "~/features/mail/mailbox.server";
import { wishRateLimits } from "~/features/wishes/wish-limits.server";
import { unsubscribe } from "~/features/wishes/wish-notice.server";
import { setVote } from "~/features/wishes/wishes.server";
import { memoryRateLimitStore } from "~/services/rate-limiter.server";
import { straightReader } from "~/db/straight-read.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";
import { openVerificationLink, signedUpAccount, verifiedAccount } from "./factories";

const password = "family-123";
const newEmail = () => `wish-${randomUUID().slice(0, 8)}@example.tw`;
const tokenFrom = (link: string) => new URL(link).searchParams.get("token") ?? "";

function formOf(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

// The site registers it at start-up (server/app.ts): wishes follow a guest who signs in to an existing account.
beforeAll(() => registerUserDataHandler(wishUserData));

describeEachDatabase("wishing well", (database) => {
  let server: AuthTestServer;
  let wishes: WishService;
  let ipCounter = 0;
  const db = () => database().handle.db;
  const nextIp = () => `192.0.2.${(ipCounter += 1)}`;

  beforeAll(async () => {
    server = await startAuthServer(database());
    wishes = createWishService({
      db: db(),
      rateLimitStore: memoryRateLimitStore(),
      brand: { productName: "任務小勇士", supportEmail: "support@example.tw", siteUrl: server.baseURL },
      cacheSeconds: 0,
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const viewerOf = async (client: AuthTestClient, editor = false): Promise<WishViewer> => ({ id: (await client.me())?.uid ?? "", editor });

  async function guest() {
    const client = server.client();
    expect((await client.post("/sign-in/anonymous")).status).toBe(200);
    return { client, viewer: await viewerOf(client) };
  }

  /** Signed up, the email not verified yet. */
  async function unverifiedUser() {
    const { client, email } = await signedUpAccount(server, { name: "小明媽媽", password });
    return { client, email, viewer: await viewerOf(client) };
  }

  async function verifiedUser(editor = false) {
    const { client, email } = await verifiedAccount(server, { name: "小明媽媽", password });
    return { client, email, viewer: await viewerOf(client, editor) };
  }

  const verify = (email: string) => openVerificationLink(server, email);

  const act = (viewer: WishViewer | null, fields: Record<string, string>, wishId?: string, ip = nextIp()) =>
    wishes.act(formOf(fields), viewer, ip, wishId);

  async function makeWish(viewer: WishViewer, title = `希望可以${randomUUID().slice(0, 6)}`, body = "說明") {
    const result = await act(viewer, { intent: "create", title, body });
    expect(result).toMatchObject({ ok: true });
    return (result as Extract<ActionResult, { ok: true }>).redirect!.split("/").pop()!;
  }

  const voteCount = async (id: string) =>
    Number((await db().selectFrom("wishes").select("vote_count").where("id", "=", id).executeTakeFirstOrThrow()).vote_count);
  const votesOf = async (id: string) => (await db().selectFrom("wish_votes").select("user_id").where("wish_id", "=", id).execute()).map((row) => row.user_id).sort();

  it("lets a guest wish, keeps limits on length, and shows the wish on the board", async () => {
    const { viewer } = await guest();
    expect(await act(null, { intent: "create", title: "一個願望" })).toMatchObject({ ok: false, status: 401, code: "wishes/sign-in-required" });
    const tooLong = await act(viewer, { intent: "create", title: "長".repeat(61), body: "字".repeat(501) });
    expect(tooLong).toMatchObject({ ok: false, status: 400, fieldErrors: { title: "願望標題最多 60 個字", body: "說明最多 500 個字" } });
    expect(await act(viewer, { intent: "create", title: "   " })).toMatchObject({ ok: false, fieldErrors: { title: "請填寫願望標題" } });
    const id = await makeWish(viewer, "😀".repeat(60), "字".repeat(500));
    const board = await wishes.board({ order: "newest", status: null, page: 1, q: "" }, viewer);
    expect(board.wishes[0]).toMatchObject({ id, title: "😀".repeat(60), status: "open", voteCount: 0 });
    expect(board.counts.all).toBeGreaterThanOrEqual(1);
  });

  it("searches titles and texts for every word, Chinese without spaces, and % and _ literally", async () => {
    const { viewer } = await guest();
    const mark = `k${Date.now().toString(36)}`;
    const dark = await makeWish(viewer, `${mark} 想要深色模式`, "晚上看螢幕比較不刺眼");
    const print = await makeWish(viewer, `${mark} 列印任務表`, "可以印出本週的深色版本");
    const percent = await makeWish(viewer, `${mark} 完成率 100% 的獎勵`, "");
    const search = async (q: string) =>
      (await wishes.board(parseBoardQuery(new URLSearchParams({ q })), null)).wishes.map((wish) => wish.id).sort();
    expect(await search(`${mark} 深色`)).toEqual([dark, print].sort());
    expect(await search(`${mark} 深色模式`)).toEqual([dark]);
    expect(await search(`${mark}   螢幕`)).toEqual([dark]);
    expect(await search(`${mark} 任務表 深色`)).toEqual([print]);
    // Typed without a space: 深色 in the text and 列印 in the title.
    expect(await search(`${mark} 深色列印`)).toEqual([print]);
    expect(await search(`${mark} 深色模式`)).toEqual([dark]);
    expect(await search(`${mark} 淺色主題`)).toEqual([]);
    expect(await search(`${mark} 100%`)).toEqual([percent]);
    expect(await search(`${mark} 1_0`)).toEqual([]);
    expect(await search(`${mark} ${mark.toUpperCase()}`)).toEqual([dark, print, percent].sort());
    const counted = await wishes.board(parseBoardQuery(new URLSearchParams({ q: `${mark} 深色` })), null);
    expect([counted.total, counted.counts.all]).toEqual([2, 2]);
  });

  it("counts one vote per user per wish, never on one's own wish, and the vote is a toggle", async () => {
    const { viewer: author } = await verifiedUser();
    const { viewer: voter } = await verifiedUser();
    const id = await makeWish(author);
    expect(await act(author, { intent: "vote", vote: "add" }, id)).toMatchObject({ ok: false, code: "wishes/own-wish" });
    expect(await act(voter, { intent: "vote", vote: "add" }, id)).toMatchObject({ ok: true, vote: { voted: true, voteCount: 1 } });
    expect(await act(voter, { intent: "vote", vote: "add" }, id)).toMatchObject({ ok: true, vote: { voted: true, voteCount: 1 } });
    await Promise.all([1, 2, 3].map(() => act(voter, { intent: "vote", vote: "add" }, id)));
    expect(await votesOf(id)).toEqual([voter.id]);
    expect(await voteCount(id)).toBe(1);
    expect((await wishes.board({ order: "votes", status: null, page: 1, q: "" }, voter)).voted).toContain(id);
    expect(await act(voter, { intent: "vote", vote: "remove" }, id)).toMatchObject({ ok: true, vote: { voted: false, voteCount: 0 } });
    expect(await voteCount(id)).toBe(0);
  });

  it("reads a parent's marks on a board page at once only where nothing waits, and then as the read that waits does (decision 713)", async () => {
    const { viewer: author } = await verifiedUser();
    const { viewer: voter } = await verifiedUser();
    const service = createWishService({
      db: db(),
      readStraight: straightReader(database().handle),
      rateLimitStore: memoryRateLimitStore(),
      brand: { productName: "任務小勇士", supportEmail: "support@example.tw", siteUrl: server.baseURL },
      cacheSeconds: 600,
    });
    const theirs = await makeWish(author);
    const own = await makeWish(voter);
    expect(await act(voter, { intent: "vote", vote: "add" }, theirs)).toMatchObject({ ok: true });
    const query = parseBoardQuery(new URLSearchParams());
    // The board's page not loaded yet: reading it would wait.
    expect(await service.marks(query, voter.id, true)).toBeUndefined();
    const waited = await service.marks(query, voter.id);
    expect(waited).toMatchObject({ voted: [theirs], own: [own] });
    if (database().handle.dialect !== "sqlite") {
      // A round trip is a wait.
      expect(await service.marks(query, voter.id, true)).toBeUndefined();
      return;
    }
    expect(await service.marks(query, voter.id, true)).toEqual(waited);
    // A template's board is the load its marks were read on, and none once a write has replaced that load.
    expect(await service.templateBoard(query, waited!)).toMatchObject({ voted: [theirs], own: [own] });
    expect(await service.act(formOf({ intent: "vote", vote: "remove" }), voter, nextIp(), theirs)).toMatchObject({ ok: true });
    expect(await service.templateBoard(query, waited!)).toBeNull();
    expect(await service.marks(query, voter.id)).toMatchObject({ voted: [], own: [own] });
    // A transaction holding SQLite's connection: a read on it would see what is not committed.
    await db()
      .transaction()
      .execute(async () => expect(await service.marks(query, voter.id, true)).toBeUndefined());
  });

  it("refuses the votes of guests and unverified accounts, counting none of them, through the form and the domain alike", async () => {
    const { viewer: author } = await guest();
    const id = await makeWish(author);
    // One person, five guests: not one vote.
    for (let index = 0; index < 5; index += 1) {
      const { viewer } = await guest();
      expect(await act(viewer, { intent: "vote", vote: "add" }, id)).toMatchObject({
        ok: false,
        status: 403,
        code: "wishes/vote-needs-account",
        message: expect.stringContaining("正式帳號"),
      });
    }
    const { email, viewer: unverified } = await unverifiedUser();
    expect(await act(unverified, { intent: "vote", vote: "add" }, id)).toMatchObject({ ok: false, status: 403, code: "wishes/vote-needs-account" });
    // The rule holds where the vote is written, whoever calls it.
    expect(await setVote(db(), id, unverified.id, true)).toBe("needs-account");
    expect(await votesOf(id)).toEqual([]);
    expect(await voteCount(id)).toBe(0);
    expect((await wishes.detail(id, unverified))?.voted).toBe(false);

    // The same account votes once its email is verified.
    await verify(email);
    expect(await act(unverified, { intent: "vote", vote: "add" }, id)).toMatchObject({ ok: true, vote: { voted: true, voteCount: 1 } });
    expect(await votesOf(id)).toEqual([unverified.id]);
  });

  it("limits wishes and votes per user and per IP with a Chinese message", async () => {
    const { viewer } = await guest();
    const ip = nextIp();
    for (let index = 0; index < wishRateLimits.wish.user.max; index += 1) {
      expect(await act(viewer, { intent: "create", title: `限制測試 ${index}` }, undefined, ip)).toMatchObject({ ok: true });
    }
    const limited = await act(viewer, { intent: "create", title: "再一個" }, undefined, nextIp());
    expect(limited).toMatchObject({ ok: false, status: 429, code: "wishes/too-many-requests" });
    expect((limited as { message: string }).message).toMatch(/^許願次數太多了，請在 \d+ 分鐘後再試。$/);

    // Many users behind one address: the per-IP limit.
    const shared = nextIp();
    const target = await makeWish((await guest()).viewer);
    let refused: ActionResult | undefined;
    for (let index = 0; index <= wishRateLimits.vote.ip.max / wishRateLimits.vote.user.max + 1 && !refused; index += 1) {
      const { viewer: voter } = await verifiedUser();
      for (let vote = 0; vote < wishRateLimits.vote.user.max; vote += 1) {
        const result = await act(voter, { intent: "vote", vote: vote % 2 ? "remove" : "add" }, target, shared);
        if (!result.ok) {
          refused = result;
          break;
        }
      }
    }
    expect(refused).toMatchObject({ ok: false, status: 429, message: expect.stringMatching(/^投票次數太多了/) });
  });

  it("lets the author edit within 15 minutes and delete their own wish, nobody else", async () => {
    const { viewer: author } = await guest();
    const { viewer: other } = await guest();
    const id = await makeWish(author);
    expect(await act(other, { intent: "edit", title: "別人改的" }, id)).toMatchObject({ ok: false, code: "wishes/not-author" });
    expect(await act(author, { intent: "edit", title: "改好的標題", body: "新的說明" }, id)).toMatchObject({ ok: true });
    expect((await wishes.detail(id, author))?.wish).toMatchObject({ title: "改好的標題", body: "新的說明" });
    expect((await wishes.detail(id, author))?.editable).toBe(true);
    await db().updateTable("wishes").set({ created_at: new Date(Date.now() - 16 * 60_000).toISOString() }).where("id", "=", id).execute();
    expect(await act(author, { intent: "edit", title: "太晚了" }, id)).toMatchObject({ ok: false, code: "wishes/edit-window-closed" });
    expect(await act(other, { intent: "delete" }, id)).toMatchObject({ ok: false, code: "wishes/not-author" });
    expect(await act(author, { intent: "delete" }, id)).toMatchObject({ ok: true });
    expect(await wishes.detail(id, author)).toBeNull();
  });

  it("leaves team actions to editors, and hides an abusive wish from everyone but the team", async () => {
    const { viewer: author } = await guest();
    const { viewer: editor } = await verifiedUser(true);
    const id = await makeWish(author, "不當內容");
    for (const intent of ["status", "reply", "merge", "hide"]) {
      expect(await act(author, { intent, status: "planned", target: randomUUID() }, id)).toMatchObject({ ok: false, status: 403 });
    }
    expect(await act(editor, { intent: "hide" }, id)).toMatchObject({ ok: true });
    expect(await wishes.detail(id, author)).toBeNull();
    expect(await wishes.detail(id, null)).toBeNull();
    expect(await wishes.detail(id, editor)).toMatchObject({ hidden: true });
    const board = await wishes.board({ order: "newest", status: null, page: 1, q: "" }, null);
    expect(board.wishes.map((wish) => wish.id)).not.toContain(id);
    expect(await act((await guest()).viewer, { intent: "vote", vote: "add" }, id)).toMatchObject({ ok: false, status: 404 });
    expect(await act(editor, { intent: "unhide" }, id)).toMatchObject({ ok: true });
    expect(await wishes.detail(id, null)).not.toBeNull();
  });

  it("sets a status with a reason for 暫不考慮, a team reply, and filters the board by status", async () => {
    const { viewer: author } = await guest();
    const { viewer: editor } = await verifiedUser(true);
    const id = await makeWish(author);
    expect(await act(editor, { intent: "status", status: "declined" }, id)).toMatchObject({ ok: false, fieldErrors: { reason: "「暫不考慮」需要寫下原因" } });
    expect(await act(editor, { intent: "status", status: "declined", reason: "和孩子的隱私衝突" }, id)).toMatchObject({ ok: true });
    expect(await act(editor, { intent: "reply", reply: "謝謝建議！" }, id)).toMatchObject({ ok: true });
    expect((await wishes.detail(id, null))?.wish).toMatchObject({ status: "declined", statusReason: "和孩子的隱私衝突", teamReply: "謝謝建議！" });
    const declined = await wishes.board({ order: "newest", status: "declined", page: 1, q: "" }, null);
    expect(declined.wishes.every((wish) => wish.status === "declined")).toBe(true);
    expect(declined.wishes.map((wish) => wish.id)).toContain(id);
    expect(declined.total).toBe(declined.counts.declined);
  });

  it("merges a duplicate: votes carried over once, the duplicate's author counted, no vote on one's own wish", async () => {
    const { viewer: targetAuthor } = await verifiedUser();
    const { viewer: duplicateAuthor } = await verifiedUser();
    const { viewer: both } = await verifiedUser();
    const { viewer: onlyDuplicate } = await verifiedUser();
    const { viewer: editor } = await verifiedUser(true);
    const target = await makeWish(targetAuthor, "希望有深色模式");
    const duplicate = await makeWish(duplicateAuthor, "想要深色模式");
    await act(both, { intent: "vote", vote: "add" }, target);
    await act(both, { intent: "vote", vote: "add" }, duplicate);
    await act(onlyDuplicate, { intent: "vote", vote: "add" }, duplicate);
    await act(targetAuthor, { intent: "vote", vote: "add" }, duplicate);

    expect(await act(editor, { intent: "merge", target: duplicate }, duplicate)).toMatchObject({ ok: false, code: "wishes/merge-same-wish" });
    expect(await act(editor, { intent: "merge", target: `http://localhost/wishing-well/${target}` }, duplicate)).toMatchObject({ ok: true, redirect: `/wishing-well/${target}` });
    expect(await votesOf(target)).toEqual([both.id, duplicateAuthor.id, onlyDuplicate.id].sort());
    expect(await voteCount(target)).toBe(3);
    expect(await votesOf(duplicate)).toEqual([]);
    expect(await wishes.detail(duplicate, null)).toMatchObject({ mergedInto: { id: target } });
    const board = await wishes.board({ order: "votes", status: null, page: 1, q: "" }, null);
    expect(board.wishes.map((wish) => wish.id)).not.toContain(duplicate);
    expect(await act(editor, { intent: "merge", target }, duplicate)).toMatchObject({ ok: false, code: "wishes/merge-already-merged" });
    expect(await act(both, { intent: "vote", vote: "add" }, duplicate)).toMatchObject({ ok: false, status: 404 });
  });

  it("finds similar wishes from a partly typed title", async () => {
    const { viewer } = await guest();
    const id = await makeWish(viewer, "希望可以匯出孩子的點數紀錄");
    expect((await wishes.similar("匯出點數")).map((wish) => wish.id)).toContain(id);
    expect(await wishes.similar("a")).toEqual([]);
  });

  it("keeps a guest's wishes when the guest upgrades (same user id), and lets it vote once the email is verified", async () => {
    const { client, viewer } = await guest();
    const { viewer: other } = await guest();
    const own = await makeWish(viewer);
    const theirs = await makeWish(other);
    expect(await act(viewer, { intent: "vote", vote: "add" }, theirs)).toMatchObject({ ok: false, code: "wishes/vote-needs-account" });
    const email = newEmail();
    expect((await client.post("/guest/upgrade", { email, password, name: "升級的家長" })).status).toBe(200);
    const upgraded = await viewerOf(client);
    expect(upgraded.id).toBe(viewer.id);
    expect((await wishes.detail(own, upgraded))?.own).toBe(true);
    expect(await act(upgraded, { intent: "vote", vote: "add" }, theirs)).toMatchObject({ ok: false, code: "wishes/vote-needs-account" });
    await verify(email);
    expect(await act(upgraded, { intent: "vote", vote: "add" }, theirs)).toMatchObject({ ok: true, vote: { voted: true, voteCount: 1 } });
    expect((await wishes.detail(theirs, upgraded))?.voted).toBe(true);
  });

  it("moves a guest's wishes and votes when the guest signs in to an existing account, without double votes", async () => {
    const { client: owner, email, viewer: account } = await verifiedUser();
    const { client, viewer } = await guest();
    const { viewer: other } = await guest();
    const theirs = await makeWish(other);
    const accountsOwn = await makeWish(account);
    const guestsOwn = await makeWish(viewer);
    // Votes a guest cast before only verified accounts could vote: they move too, never twice on one wish.
    const before = new Date().toISOString();
    await db().insertInto("wish_votes").values([theirs, accountsOwn].map((wish_id) => ({ wish_id, user_id: viewer.id, created_at: before }))).execute();
    await act(account, { intent: "vote", vote: "add" }, theirs);
    expect((await client.post("/sign-in/email", { email, password })).status).toBe(200);
    expect((await client.me())?.uid).toBe(account.id);
    expect((await wishes.detail(guestsOwn, account))?.own).toBe(true);
    expect(await votesOf(theirs)).toEqual([account.id]);
    expect(await voteCount(theirs)).toBe(1);
    expect(await votesOf(accountsOwn)).toEqual([]);
    expect(await voteCount(accountsOwn)).toBe(0);
    void owner;
  });

  it("on account deletion removes the user's votes and their wishes (decision 840), and wishes merged into them return", async () => {
    const { client, viewer } = await verifiedUser();
    const { viewer: other } = await verifiedUser();
    const { viewer: editor } = await verifiedUser(true);
    const own = await makeWish(viewer);
    const theirs = await makeWish(other);
    const duplicate = await makeWish(other, "重複的願望");
    await act(viewer, { intent: "vote", vote: "add" }, theirs);
    await act(other, { intent: "vote", vote: "add" }, own);
    await act(editor, { intent: "merge", target: own }, duplicate);
    expect(await voteCount(theirs)).toBe(1);

    expect((await client.post("/delete-user", { password })).status).toBe(200);
    expect(await wishes.detail(own, null)).toBeNull();
    expect(await votesOf(theirs)).toEqual([]);
    expect(await voteCount(theirs)).toBe(0);
    expect(await db().selectFrom("wish_votes").select("wish_id").where("user_id", "=", viewer.id).execute()).toEqual([]);
    expect(await wishes.detail(duplicate, null)).toMatchObject({ mergedInto: null, wish: { id: duplicate } });
  });

  it("mails a verified author when the status changes, with a working one-click unsubscribe; guests get nothing", async () => {
    const { email, viewer: author } = await verifiedUser();
    const { viewer: editor } = await verifiedUser(true);
    const id = await makeWish(author, "希望有家長聊天室");
    expect(await act(editor, { intent: "status", status: "planned" }, id)).toMatchObject({ ok: true });
    const mail = await server.latestMail(email, /希望有家長聊天室/);
    expect(mail.subject).toBe("【任務小勇士】你的願望「希望有家長聊天室」規劃中");
    expect(mail.text).toContain("規劃中");
    // A name is whatever its owner typed: it never leads (or appears in) a mail, like every other mail of the site.
    expect(mail.text.startsWith("你好")).toBe(true);
    expect(mail.text).not.toContain("小明媽媽");
    expect(mail.html).not.toContain("小明媽媽");
    expect(mail.links).toContain(`${server.baseURL}/wishing-well/${id}`);
    const unsubscribeLink = mail.links.find((link) => link.includes("/wishing-well/unsubscribe?token="));
    expect(unsubscribeLink).toBeDefined();
    // Written to the durable outbox with the change, with the one-click unsubscribe headers (RFC 8058).
    const queued = await db().selectFrom("mail_outbox").select(["subject", "headers"]).where("recipient", "=", email).where("subject", "like", "%規劃中").executeTakeFirstOrThrow();
    expect(JSON.parse(queued.headers ?? "{}")).toEqual({ "List-Unsubscribe": `<${unsubscribeLink}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    // The same status again is no change and sends nothing.
    expect(await act(editor, { intent: "status", status: "planned" }, id)).toMatchObject({ ok: true });

    expect(await unsubscribe(db(), tokenFrom(unsubscribeLink!))).toBe(true);
    expect(await unsubscribe(db(), "not-a-token")).toBe(false);
    expect(await act(editor, { intent: "status", status: "done" }, id)).toMatchObject({ ok: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const mails = await listMailbox(db(), email);
    expect(mails.filter((entry) => entry.subject.includes("希望有家長聊天室"))).toHaveLength(1);

    const { viewer: guestAuthor } = await guest();
    const guestWish = await makeWish(guestAuthor);
    expect(await act(editor, { intent: "status", status: "received" }, guestWish)).toMatchObject({ ok: true });
  });
});
