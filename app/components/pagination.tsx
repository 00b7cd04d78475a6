import { Link } from "react-router";

/** 上一頁, every page number and 下一頁 under a list; `hrefFor` says where page n of this list is. */
export function Pagination({ page, pageCount, hrefFor }: { page: number; pageCount: number; hrefFor(page: number): string }) {
  const pages = Array.from({ length: pageCount }, (_, index) => index + 1);
  return (
    <nav className="pagination" aria-label="分頁">
      <ul>
        {page > 1 && (
          <li>
            <Link to={hrefFor(page - 1)} rel="prev">
              上一頁
            </Link>
          </li>
        )}
        {pages.map((number) => (
          <li key={number}>
            <Link to={hrefFor(number)} aria-current={number === page ? "page" : undefined} aria-label={`第 ${number} 頁`}>
              {number}
            </Link>
          </li>
        ))}
        {page < pageCount && (
          <li>
            <Link to={hrefFor(page + 1)} rel="next">
              下一頁
            </Link>
          </li>
        )}
      </ul>
    </nav>
  );
}
