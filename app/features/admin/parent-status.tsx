import type { ParentSummary } from "./console-types";

/** An account's state in a few words: verified or not, guest, locked, a role other than the parent's. */
export function ParentStatus({ parent }: { parent: ParentSummary }) {
  const words = [
    parent.guest ? "訪客" : parent.verified ? "已驗證" : "尚未驗證電子郵件",
    parent.locked ? "已停用" : null,
    parent.role === "user" ? null : `角色：${parent.role}`,
  ].filter(Boolean);
  return <>{words.join("．")}</>;
}
