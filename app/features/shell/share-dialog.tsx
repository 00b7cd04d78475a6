import { useEffect, useRef, useState } from "react";
import { usePublicEnv } from "~/config/use-public-env";
import type { ShareMethod } from "~/features/analytics/analytics-events";
import { track } from "~/features/analytics/track";
import { Dialog } from "~/components/ui/dialog";
import { COPIED_CONFIRMATION_MS, copyText, openSharePopup, shareLinkLabels, shareLinks, shareText, type ShareLinkMethod } from "./share";

/** Shares SITE_URL with the fixed promotional text. Failures are only logged (the original §8). */
export function ShareDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { siteUrl, productName } = usePublicEnv();
  const text = shareText(productName);
  const links = shareLinks(siteUrl, text);
  const canShareNatively = typeof navigator !== "undefined" && typeof navigator.share === "function";
  const [copied, setCopied] = useState(false);
  const hideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(hideTimer.current), []);

  const report = (method: ShareMethod) => track("website_share", { share_method: method, share_url: siteUrl });
  const fail = (error: unknown) => console.error("分享失敗", error);

  const shareNatively = () => {
    report("native");
    navigator.share({ title: productName, text, url: siteUrl }).catch(fail);
  };
  const copyLink = () => {
    report("copy");
    copyText(siteUrl).then(() => {
      setCopied(true);
      clearTimeout(hideTimer.current);
      hideTimer.current = setTimeout(() => setCopied(false), COPIED_CONFIRMATION_MS);
    }, fail);
  };

  return (
    <Dialog open={open} title="分享網站" onClose={onClose}>
      <p>{text}</p>
      <div className="share-actions">
        {canShareNatively && (
          <button type="button" className="button button--primary" onClick={shareNatively}>
            使用裝置分享
          </button>
        )}
        {(Object.keys(links) as ShareLinkMethod[]).map((method) => (
          <button
            key={method}
            type="button"
            className="button"
            onClick={() => {
              report(method);
              openSharePopup(links[method]);
            }}
          >
            分享到 {shareLinkLabels[method]}
          </button>
        ))}
        <button type="button" className="button" onClick={copyLink}>
          複製連結
        </button>
      </div>
      <p className="share-status" role="status">
        {copied ? "已複製！" : ""}
      </p>
    </Dialog>
  );
}
