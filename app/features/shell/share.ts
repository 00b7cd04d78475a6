import type { ShareMethod } from "~/features/analytics/analytics-events";

/** The original §9: share pop-ups are 600×400, the copied confirmation shows for 2 seconds. */
export const SHARE_POPUP = { width: 600, height: 400 } as const;
export const COPIED_CONFIRMATION_MS = 2_000;

export type ShareLinkMethod = Extract<ShareMethod, "facebook" | "twitter" | "line">;

export const shareLinkLabels: Record<ShareLinkMethod, string> = { facebook: "Facebook", twitter: "Twitter (X)", line: "LINE" };

/** The fixed promotional text shared together with the site's root address. */
export function shareText(productName: string): string {
  return `推薦給家長：${productName}用遊戲化的任務，陪孩子養成獨立與責任感！`;
}

export function shareLinks(url: string, text: string): Record<ShareLinkMethod, string> {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(text);
  return {
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${u}`,
    twitter: `https://twitter.com/intent/tweet?url=${u}&text=${t}`,
    line: `https://social-plugins.line.me/lineit/share?url=${u}&text=${t}`,
  };
}

/** Opens a share link in a 600×400 pop-up centred over the current window. */
export function openSharePopup(href: string) {
  const { width, height } = SHARE_POPUP;
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  window.open(href, "share", `width=${width},height=${height},left=${left},top=${top},noopener`);
}

/** The Clipboard API where allowed, else the old hidden-textarea copy command. Rejects when neither works. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // No Clipboard API (older browsers, insecure origins) or permission refused: fall back below.
  }
  const previousFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const textarea = document.createElement("textarea");
  textarea.value = text;
  textarea.setAttribute("readonly", "");
  textarea.style.position = "fixed";
  textarea.style.opacity = "0";
  // Inside an open modal dialog: everything outside it is inert and could not be selected.
  (previousFocus?.closest("dialog") ?? document.body).append(textarea);
  textarea.focus();
  textarea.select();
  const copied = document.execCommand("copy");
  textarea.remove();
  previousFocus?.focus();
  if (!copied) throw new Error("copy command refused");
}
