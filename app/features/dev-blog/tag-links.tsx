import { Link } from "react-router";
import { listHref } from "./links";

/** A post's tags, each a link to the list filtered by it. */
export function TagLinks({ tags }: { tags: string[] }) {
  if (!tags.length) return null;
  return (
    <ul className="tag-list" aria-label="標籤">
      {tags.map((tag) => (
        <li key={tag}>
          <Link to={listHref({ tag })}>#{tag}</Link>
        </li>
      ))}
    </ul>
  );
}
