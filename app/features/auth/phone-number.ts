/**
 * Phone numbers as people type them, stored as E.164 (`+886912345678`). A Taiwanese mobile number is accepted in
 * any usual form (`0912-345-678`, `0912345678`, `+886 912 345 678`, `+886 0912…`, `00886…`); another country's
 * number only when SMS_ALLOWED_COUNTRIES names that country. Shared by the forms and the server.
 */

/** Calling codes of the countries SMS_ALLOWED_COUNTRIES may name (ISO 3166 alpha-2). */
const callingCodes: Readonly<Record<string, string>> = {
  TW: "886", HK: "852", MO: "853", JP: "81", KR: "82", SG: "65", MY: "60", US: "1", CA: "1", GB: "44", AU: "61", NZ: "64",
};

/** A Taiwanese mobile number: 09 and eight digits, i.e. +886 9 and eight digits. */
const taiwanMobile = /^\+8869\d{8}$/;

/** The typed number as E.164, or null when it is not a number this site texts. */
export function toE164(typed: string, allowedCountries: readonly string[] = []): string | null {
  if (typed.length > 40) return null;
  const compact = typed.trim().replace(/[\s\-().\u3000]/g, "");
  if (!/^(\+|00)?\d{6,16}$/.test(compact)) return null;
  let number: string;
  if (compact.startsWith("+")) number = compact;
  else if (compact.startsWith("00")) number = `+${compact.slice(2)}`;
  else if (/^09\d{8}$/.test(compact)) number = `+886${compact.slice(1)}`;
  else return null;
  // "+886 0912…": the trunk zero some people keep after the country code.
  number = number.replace(/^\+8860/, "+886");
  if (number.startsWith("+886")) return taiwanMobile.test(number) ? number : null;
  const allowed = allowedCountries.some((country) => {
    const code = callingCodes[country];
    return code !== undefined && number.startsWith(`+${code}`);
  });
  return allowed && /^\+\d{8,15}$/.test(number) ? number : null;
}

/** A stored number as Taiwanese people read it: `0912-345-678`; another country's stays E.164. */
export function displayPhoneNumber(e164: string): string {
  const match = /^\+886(9\d{2})(\d{3})(\d{3})$/.exec(e164);
  return match ? `0${match[1]}-${match[2]}-${match[3]}` : e164;
}

/** The placeholder address of an account that signed up by phone (it has no email; `.invalid` is never mailed). */
export const phoneAccountEmail = (e164: string) => `${e164.slice(1)}@phone.invalid`;

/**
 * The address a parent gave, or null for a placeholder (a phone account's `…@phone.invalid`, a guest's
 * `…@guest.invalid`): a placeholder is never shown, put in an app's claims or written to.
 */
export function givenEmail(email: string | null | undefined): string | null {
  return email && !/\.invalid$/i.test(email) ? email : null;
}

/** What names the account to the parent and their password manager: the address they gave, else the phone number. */
export function accountName(email: string | null | undefined, phoneNumber: string | null | undefined): string {
  return givenEmail(email) ?? (phoneNumber ? displayPhoneNumber(phoneNumber) : "");
}

/** The account's number (E.164) once a texted code proved it, as its user row carries it (ways-in/phone). */
export function verifiedNumber(user: object): string | null {
  const { phoneNumber, phoneNumberVerified } = user as { phoneNumber?: string | null; phoneNumberVerified?: unknown };
  return phoneNumber && phoneNumberVerified ? phoneNumber : null;
}
