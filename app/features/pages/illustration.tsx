import type { Image } from "~content/types";

/** A decorative SVG illustration with its size set: lazy below the fold, fetched first above it. */
export function Illustration({ image, eager = false, className }: { image: Image; eager?: boolean; className?: string }) {
  return (
    <img
      className={className}
      src={image.src}
      width={image.width}
      height={image.height}
      alt=""
      loading={eager ? "eager" : "lazy"}
      fetchPriority={eager ? "high" : "auto"}
      decoding="async"
    />
  );
}
