import { passwordRules, type PasswordPolicy } from "~/features/auth";

/** The rules in force, each marked as met or not while the user types (the common-password rule only on submit). */
export function PasswordRulesList({ password, policy }: { password: string; policy: PasswordPolicy }) {
  return (
    <ul className="auth-rules" aria-label="密碼規則">
      {passwordRules(password, policy).map((rule) => (
        <li key={rule.id} data-met={rule.met ?? undefined}>
          {rule.met ? "✓ " : "・"}
          {rule.label}
        </li>
      ))}
    </ul>
  );
}
