/** The star mark of public/favicon.svg, inline: no image request competes with the first paint. */
export function LogoMark({ label }: { label: string }) {
  return (
    <svg className="site-header__mark" viewBox="0 0 64 64" width="36" height="36" role="img" aria-label={label}>
      <rect width="64" height="64" rx="14" fill="#4a6bff" />
      <path d="M32 12l5.9 12 13.1 1.9-9.5 9.3 2.2 13.1L32 42.1 20.3 48.3l2.2-13.1L13 25.9 26.1 24z" fill="#ffb938" />
    </svg>
  );
}
