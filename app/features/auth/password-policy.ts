/** The active password rules (configurable, PRODUCT §5); the sign-up screen shows them as the user types. */
export interface PasswordPolicy {
  minLength: number;
  maxLength: number;
  requireLowercase: boolean;
  requireUppercase: boolean;
  requireDigit: boolean;
  requireSymbol: boolean;
}

export interface PasswordRule {
  id: "length" | "lowercase" | "uppercase" | "digit" | "symbol" | "common";
  label: string;
  /** Null where only the server can tell (the common-password list stays off the browser). */
  met: boolean | null;
}

/** Passwords are compared and hashed in Unicode NFC, so the same word typed on any keyboard is the same password. */
export function normalizePassword(password: string): string {
  return password.normalize("NFC");
}

const lengthOf = (password: string) => [...normalizePassword(password)].length;

/** Every rule in force under the policy, each with whether the password meets it. */
export function passwordRules(password: string, policy: PasswordPolicy): PasswordRule[] {
  const length = lengthOf(password);
  const rules: PasswordRule[] = [
    {
      id: "length",
      label: `至少 ${policy.minLength} 個字元（最多 ${policy.maxLength} 個）`,
      met: length >= policy.minLength && length <= policy.maxLength,
    },
  ];
  if (policy.requireLowercase) rules.push({ id: "lowercase", label: "至少一個小寫英文字母", met: /[a-z]/.test(password) });
  if (policy.requireUppercase) rules.push({ id: "uppercase", label: "至少一個大寫英文字母", met: /[A-Z]/.test(password) });
  if (policy.requireDigit) rules.push({ id: "digit", label: "至少一個數字", met: /\d/.test(password) });
  if (policy.requireSymbol) rules.push({ id: "symbol", label: "至少一個特殊符號", met: /[^A-Za-z0-9\s]/.test(password) });
  rules.push({ id: "common", label: "不可是常見密碼（例如 12345678、1qaz2wsx）", met: null });
  return rules;
}

/**
 * The message for a password that breaks the policy's rules that the browser can check, or null. The length
 * message is the catalogue's `auth/weak-password` with the configured minimum.
 */
export function passwordProblem(password: string, policy: PasswordPolicy): string | null {
  const length = lengthOf(password);
  if (length < policy.minLength) return weakPasswordMessage(policy.minLength);
  if (length > policy.maxLength) return `密碼不可超過 ${policy.maxLength} 個字元`;
  const broken = passwordRules(password, policy).filter((rule) => rule.met === false);
  return broken.length ? `密碼強度不足：需要${broken.map((rule) => rule.label).join("、")}` : null;
}

export function weakPasswordMessage(minLength: number): string {
  return `密碼強度不足，至少需要 ${minLength} 個字元`;
}

export const commonPasswordMessage = "這個密碼太常見，很容易被猜中，請換一個";
