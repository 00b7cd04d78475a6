/** The developer blog's screens (PRODUCT §3): their headings, and what a reader or a refused writer is told. */
export const devBlog = {
  list: {
    title: "開發日誌",
    lead: "{{productName}}團隊記錄產品怎麼做出來的地方：設計取捨、技術選擇與每次更新的故事。",
    description: "{{productName}}團隊的開發日誌：設計取捨、技術選擇與每次更新的故事。",
  },
  empty: "開發日誌還沒有發表的文章。想看我們如何打造這個網站，可以先讀 2025 iThome 鐵人賽的技術文章系列。",
  emptyAction: { label: "閱讀技術文章", href: "/ironman2025" },
  notFound: "找不到這篇開發日誌",
  editor: {
    createTitle: "撰寫開發日誌",
    editTitle: "編輯開發日誌",
  },
  forbidden: {
    title: "此頁限編輯使用",
    lead: "只有擔任編輯的團隊成員可以撰寫或修改開發日誌。",
    description: "撰寫或編輯開發日誌（限編輯）。",
    status: "你目前登入的帳號不是編輯帳號，所以無法開啟編輯畫面。",
    meanwhile: "如果你是團隊成員，請聯絡網站管理者（{{supportEmail}}）開通編輯身分，開通後重新登入即可。",
    action: { label: "回到開發日誌", href: "/dev-blog" },
  },
};
