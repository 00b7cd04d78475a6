import { z } from "~/lib/zod";

/**
 * What `firebase auth:export <file> --format=json` writes: `{ "users": [ … ] }`, times in milliseconds as strings,
 * `customAttributes` a JSON string, one `providerUserInfo` entry per way in. A user with none is a guest.
 */
const providerEntry = z.object({
  providerId: z.string().min(1),
  rawId: z.string().min(1).optional(),
  federatedId: z.string().optional(),
  email: z.string().optional(),
  displayName: z.string().optional(),
  photoUrl: z.string().optional(),
  phoneNumber: z.string().optional(),
});

const millis = z.union([z.string().regex(/^\d{1,15}$/), z.number().int().nonnegative()]).transform(Number);

export const exportedUser = z.object({
  localId: z.string().min(1).max(128).regex(/^[\x21-\x7e]+$/, "uid 只能是可見的 ASCII 字元"),
  email: z.email().optional(),
  emailVerified: z.boolean().optional(),
  passwordHash: z.string().optional(),
  salt: z.string().optional(),
  displayName: z.string().optional(),
  photoUrl: z.string().optional(),
  phoneNumber: z.string().regex(/^\+[1-9]\d{6,14}$/, "電話號碼不是 E.164 格式").optional(),
  disabled: z.boolean().optional(),
  createdAt: millis.optional(),
  lastSignedInAt: millis.optional(),
  customAttributes: z.string().optional(),
  providerUserInfo: z.array(providerEntry).optional(),
});

export type ExportedUser = z.infer<typeof exportedUser>;

export class ExportFileError extends Error {}

/**
 * The file's entries, each parsed or with why it is malformed; a file that is not an export at all (cut off,
 * not JSON, no `users` list) throws before anything is written.
 */
export function readExport(text: string): { entries: ({ ok: true; user: ExportedUser; raw: unknown } | { ok: false; uid: string; reason: string; raw: unknown })[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ExportFileError("檔案不是完整的 JSON（可能在傳輸時被截斷）：請重新執行 firebase auth:export --format=json。沒有寫入任何資料。");
  }
  const users = (parsed as { users?: unknown } | null)?.users;
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed) || !Array.isArray(users)) {
    throw new ExportFileError('檔案不是 Firebase 的帳號匯出（應為 { "users": [ … ] }，由 firebase auth:export --format=json 產生）。沒有寫入任何資料。');
  }
  if (users.length > 0 && !users.some((user) => typeof (user as { localId?: unknown } | null)?.localId === "string")) {
    throw new ExportFileError("檔案中的 users 沒有任何一筆帶 localId：這不是 Firebase 的帳號匯出。沒有寫入任何資料。");
  }
  return {
    entries: users.map((raw: unknown) => {
      const result = exportedUser.safeParse(raw);
      if (result.success) return { ok: true as const, user: result.data, raw };
      const uid = typeof (raw as { localId?: unknown } | null)?.localId === "string" ? (raw as { localId: string }).localId : "(沒有 localId)";
      const issue = result.error.issues[0];
      return { ok: false as const, uid, reason: `格式不符：${issue?.path.join(".") || "(整筆)"} ${issue?.message ?? ""}`.trim(), raw };
    }),
  };
}

/** The way in a provider entry becomes here: a Better Auth `account.providerId`, the phone columns, or nothing. */
export function providerHere(firebaseProviderId: string): "credential" | "google" | "facebook" | "apple" | "line" | "phone" | null {
  switch (firebaseProviderId) {
    case "password":
      return "credential";
    case "google.com":
      return "google";
    case "facebook.com":
      return "facebook";
    case "apple.com":
      return "apple";
    case "phone":
      return "phone";
    default:
      // LINE reaches Firebase through an OpenID Connect provider the project names (`oidc.line`, `oidc.line-login`).
      return /^oidc\.line\b/i.test(firebaseProviderId) ? "line" : null;
  }
}
