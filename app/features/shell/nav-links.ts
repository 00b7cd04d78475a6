/** The bar's six links (PRODUCT §4). Only 學習資源 stays active on the pages nested below it. */
export const navLinks = [
  { to: "/", label: "首頁", end: true },
  { to: "/features", label: "功能介紹", end: true },
  { to: "/tutorial", label: "使用教學", end: true },
  { to: "/pricing", label: "免費方案", end: true },
  { to: "/wishing-well", label: "許願池", end: true },
  { to: "/learning-resources", label: "學習資源", end: false },
] as const;
