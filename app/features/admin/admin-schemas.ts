import { z } from "~/lib/zod";
import { roles } from "~/features/auth";

// The operator console's forms: every action names the parent and asks for a reason, which lands in the record.

const reason = z.string().trim().min(2, "請寫下這次操作的原因（至少 2 個字）").max(500, "原因請在 500 字以內");

export const operatorActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("resend-verification"), reason }),
  z.object({ intent: z.literal("sign-out-everywhere"), reason }),
  z.object({ intent: z.literal("lock"), reason }),
  z.object({ intent: z.literal("unlock"), reason }),
  z.object({ intent: z.literal("set-role"), reason, role: z.enum(roles, "請選擇角色") }),
  z.object({ intent: z.literal("delete"), reason, confirmAccount: z.string().trim() }),
]);

export type OperatorAction = z.infer<typeof operatorActionSchema>;
export type OperatorIntent = OperatorAction["intent"];
