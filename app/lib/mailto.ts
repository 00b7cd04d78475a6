/** A `mailto:` link with a subject, percent-encoded so Chinese subjects survive every mail client. */
export function mailtoHref(email: string, subject: string): string {
  return `mailto:${email}?subject=${encodeURIComponent(subject)}`;
}
