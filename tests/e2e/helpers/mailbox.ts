import { baseURL } from "./browser";

export interface Mail {
  subject: string;
  text: string;
  links: string[];
}

/**
 * The newest email to `to` whose subject matches, once at least `count` such emails have arrived (mail goes out
 * in the background), read from the development mailbox's JSON (of the suite's site, or of the site at `origin`).
 */
export async function mailTo(to: string, subject: RegExp, count = 1, origin = baseURL()): Promise<Mail> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const mails = (await (await fetch(`${origin}/api/dev/mailbox?to=${encodeURIComponent(to)}`)).json()) as Mail[];
    const matching = mails.filter((mail) => subject.test(mail.subject));
    if (matching.length >= count && matching[0]) return matching[0];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to}`);
}

/** The path and query of the mail's link to `path`, to open on the site under test. */
export const linkTo = (mail: Mail, path: string) => {
  const link = mail.links.find((candidate) => new URL(candidate).pathname === path);
  if (!link) throw new Error(`no ${path} link in ${mail.subject}`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

/** The newest code texted to `e164`, read from the development mailbox's JSON (texts sit beside mail). */
export async function textedCode(e164: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const texts = (await (await fetch(`${baseURL()}/api/dev/mailbox?to=${encodeURIComponent(e164)}`)).json()) as { subject: string; text: string }[];
    const code = texts.map((text) => /驗證碼是 (\d{6})/.exec(text.text)?.[1]).find(Boolean);
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no code texted to ${e164}`);
}
