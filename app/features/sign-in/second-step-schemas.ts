import { z } from "~/lib/zod";

/**
 * The forms of two-step sign-in and passkeys (the code page, the account screens). A file of their own, not in
 * sign-in-schemas.ts: a module many route chunks share joins the shell bundle with its dependencies (vite.config.ts).
 */
const text = z.string().default("");

/** The six digits of an authenticator app (spaces allowed, as the apps show them in groups). */
const totpCode = text.pipe(z.string().transform((value) => value.replace(/\s+/g, "")).pipe(z.string().regex(/^\d{6}$/, "請輸入驗證器 App 顯示的 6 位數字")));

const trustDevice = text.transform((value) => value === "on");

/** The code page of a pending two-step sign-in: the app's code, and whether this device is remembered 30 days. */
export const twoStepCodeSchema = z.object({ code: totpCode, trustDevice });

/** The same page with a backup code instead (`K7QM4-XR2PD`, any case; spaces ignored, the dash may be left out). */
export const backupCodeSchema = z.object({
  backupCode: text.pipe(
    z
      .string()
      .transform((value) => value.replace(/\s+/g, "").replace(/^([A-Za-z0-9]{5})([A-Za-z0-9]{5})$/, "$1-$2"))
      .pipe(z.string().regex(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/, "請輸入一組備用碼（例如 K7QM4-XR2PD）")),
  ),
  trustDevice,
});

/** Confirming the enrolment (or turning it off without a password): the app's current code. */
export const totpConfirmSchema = z.object({ code: totpCode });

/** A passkey's name as its owner types it. */
export const passkeyNameSchema = z.object({ id: text, name: text.pipe(z.string().trim().min(1, "請輸入名稱").max(50, "名稱不可超過 50 個字元")) });
