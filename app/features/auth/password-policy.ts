/** The active password rules (configurable, PRODUCT.md §5); the sign-up screen shows them as the user types. */
export interface PasswordPolicy {
  minLength: number;
  maxLength: number;
  requireLowercase: boolean;
  requireUppercase: boolean;
  requireDigit: boolean;
  requireSymbol: boolean;
}

export interface PasswordRule {
  id: "length" | "lowercase" | "uppercase" | "digit" | "symbol";
  label: string;
  met: boolean;
}

/** Every rule that applies under the policy, each with whether the password meets it. */
export function passwordRules(password: string, policy: PasswordPolicy): PasswordRule[] {
  const length = [...password].length;
  const rules: PasswordRule[] = [
    {
      id: "length",
      label: `${policy.minLength}–${policy.maxLength} 個字元`,
      met: length >= policy.minLength && length <= policy.maxLength,
    },
  ];
  if (policy.requireLowercase) rules.push({ id: "lowercase", label: "至少一個小寫英文字母", met: /[a-z]/.test(password) });
  if (policy.requireUppercase) rules.push({ id: "uppercase", label: "至少一個大寫英文字母", met: /[A-Z]/.test(password) });
  if (policy.requireDigit) rules.push({ id: "digit", label: "至少一個數字", met: /\d/.test(password) });
  if (policy.requireSymbol) rules.push({ id: "symbol", label: "至少一個特殊符號", met: /[^A-Za-z0-9\s]/.test(password) });
  return rules;
}

/** The message for a password that breaks the policy, or null when it is fine. */
export function passwordProblem(password: string, policy: PasswordPolicy): string | null {
  const broken = passwordRules(password, policy).filter((rule) => !rule.met);
  return broken.length ? `密碼強度不足：需要${broken.map((rule) => rule.label).join("、")}` : null;
}
