import type { ServerEnv } from "~/config/env.server";
import type { PasswordPolicy } from "./password-policy";

export function passwordPolicyFrom(env: ServerEnv): PasswordPolicy {
  return {
    minLength: env.PASSWORD_MIN_LENGTH,
    maxLength: env.PASSWORD_MAX_LENGTH,
    requireLowercase: env.PASSWORD_REQUIRE_LOWERCASE,
    requireUppercase: env.PASSWORD_REQUIRE_UPPERCASE,
    requireDigit: env.PASSWORD_REQUIRE_DIGIT,
    requireSymbol: env.PASSWORD_REQUIRE_SYMBOL,
  };
}
