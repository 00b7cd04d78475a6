import { passwordRules, type PasswordPolicy } from "./password-policy";

/** The active password rules, each marked as met or not while the user types. */
export function PasswordRulesList({ password, policy }: { password: string; policy: PasswordPolicy }) {
  return (
    <ul className="auth-rules" aria-label="密碼規則">
      {passwordRules(password, policy).map((rule) => (
        <li key={rule.id} data-met={rule.met}>
          {rule.met ? "✓ " : "・"}
          {rule.label}
        </li>
      ))}
    </ul>
  );
}
