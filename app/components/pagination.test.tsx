import { render, within } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { Pagination } from "./pagination";

function renderPage(page: number, pageCount: number) {
  const Stub = createRoutesStub([
    { path: "/list", Component: () => <Pagination page={page} pageCount={pageCount} hrefFor={(number) => `/list?page=${number}`} /> },
  ]);
  const { container } = render(<Stub initialEntries={["/list"]} />);
  return within(within(container).getByRole("navigation", { name: "分頁" }));
}

describe("Pagination", () => {
  it("links every page, marks the current one, and offers the previous and next pages where they exist", () => {
    const nav = renderPage(2, 3);
    const links = nav.getAllByRole("link").map((link) => [link.textContent, link.getAttribute("href"), link.getAttribute("aria-current")]);
    expect(links).toEqual([
      ["上一頁", "/list?page=1", null],
      ["1", "/list?page=1", null],
      ["2", "/list?page=2", "page"],
      ["3", "/list?page=3", null],
      ["下一頁", "/list?page=3", null],
    ]);
  });

  it("has no previous link on the first page and no next link on the last", () => {
    expect(renderPage(1, 2).queryByRole("link", { name: "上一頁" })).toBeNull();
    expect(renderPage(2, 2).queryByRole("link", { name: "下一頁" })).toBeNull();
  });
});
