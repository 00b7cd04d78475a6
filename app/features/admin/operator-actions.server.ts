import type { DatabaseHandle } from "~/db/connection.server";
import { type AuthService, setUserRole, deleteUserData } from "~/features/auth/index.server";
import { recordSecurityEvent } from "~/features/security-record/security-record.server";
import { endTabletsOfLockedFamily } from "~/features/family/family-devices.server";
import { accountName, givenEmail, toE164 } from "~/features/auth";
import type { OperatorAction } from "./admin-schemas";

/** Who acted, from where: every action lands in the parent's security record with the operator's reason. */
export interface OperatorContext {
  operatorId: string;
  ip: string | null;
  userAgent: string | null;
}

type Target = { id: string; email: string; emailVerified: boolean | number; phoneNumber: string | null };

/** Whether what the operator typed names the account: its email (any case) or its phone number as people type it. */
function namesAccount(typed: string, target: Target): boolean {
  const email = givenEmail(target.email);
  if (email && typed.toLowerCase() === email.toLowerCase()) return true;
  return Boolean(target.phoneNumber && toE164(typed) === target.phoneNumber) || (!email && !target.phoneNumber && typed === target.id);
}

/** An action's outcome: a notice to show, or a refusal in words (nothing was changed then). */
export type ActionOutcome = { notice: string } | { refusal: string; field?: string };

const recordOf = (database: DatabaseHandle, action: OperatorAction, target: Target, by: OperatorContext, extra: Record<string, string> = {}) =>
  recordSecurityEvent(database, {
    event: `admin-${action.intent}`,
    userId: target.id,
    actorId: by.operatorId,
    ip: by.ip,
    userAgent: by.userAgent,
    detail: { reason: action.reason, ...extra },
  });

/** Ends every session of the account, and with them every app sign-in (their grants live by a session row). */
async function endEverySession({ db }: DatabaseHandle, userId: string): Promise<number> {
  const ended = await db.deleteFrom("session").where("userId", "=", userId).executeTakeFirst();
  return Number(ended.numDeletedRows);
}

export async function runOperatorAction(service: AuthService, target: Target, action: OperatorAction, by: OperatorContext): Promise<ActionOutcome> {
  const { database } = service;
  const { db } = database;
  switch (action.intent) {
    case "resend-verification": {
      if (!givenEmail(target.email)) return { refusal: "這個帳號沒有電子郵件（以手機號碼或訪客身分使用），沒有驗證信可寄。" };
      if (target.emailVerified) return { refusal: "這個帳號的電子郵件已經驗證過，不需要再寄驗證信。" };
      await service.auth.api.sendVerificationEmail({ body: { email: target.email } });
      await recordOf(database, action, target, by);
      return { notice: `已重新寄出驗證信到 ${target.email}。請家長查看收件匣與垃圾郵件匣。` };
    }
    case "sign-out-everywhere": {
      const ended = await endEverySession(database, target.id);
      await recordOf(database, action, target, by);
      return { notice: `已登出所有裝置與 App，共結束 ${ended} 個登入。` };
    }
    case "lock": {
      await db.updateTable("user").set({ lockedAt: new Date().toISOString() }).where("id", "=", target.id).execute();
      // Its sessions include the grants of the children's tablets it approved (621-tablets-of-a-locked-parent.md).
      const ended = (await endEverySession(database, target.id)) + (await endTabletsOfLockedFamily(db, target.id));
      await recordOf(database, action, target, by);
      return { notice: `帳號已停用，並結束 ${ended} 個登入；恢復前這個帳號無法以任何方式登入。` };
    }
    case "unlock": {
      await db.updateTable("user").set({ lockedAt: null }).where("id", "=", target.id).execute();
      await recordOf(database, action, target, by);
      return { notice: "帳號已恢復，家長可以再次登入。" };
    }
    case "set-role": {
      if (target.id === by.operatorId && action.role !== "admin") return { refusal: "不能拿掉自己的管理員角色，請由另一位管理員操作。", field: "role" };
      await setUserRole(database, target.email, action.role);
      await recordOf(database, action, target, by, { role: action.role });
      return { notice: `角色已設為 ${action.role}。` };
    }
    case "delete": {
      if (!namesAccount(action.confirmAccount, target)) {
        return { refusal: `請輸入「${accountName(target.email, target.phoneNumber) || target.id}」，確認要刪除的是這個帳號。`, field: "confirmAccount" };
      }
      if (target.id === by.operatorId) return { refusal: "不能在這裡刪除自己的帳號。" };
      // Recorded first: the record keeps the row after the account (and its sessions, ways in, data) are gone.
      await recordOf(database, action, target, by);
      await deleteUserData(db, target.id);
      await db.deleteFrom("user").where("id", "=", target.id).execute();
      return { notice: `帳號 ${accountName(target.email, target.phoneNumber) || target.id} 已刪除。` };
    }
  }
}
