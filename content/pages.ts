import type { PageIntro } from "./types";

/** Headings and lead paragraphs of the list screens, whose items come from Markdown files. */
export const pages = {
  blog: {
    title: "家長學堂",
    lead: "給家長的實用教養文章：家務分工、生活常規、獎勵、螢幕時間與手足相處。",
    description: "給台灣家長的實用教養文章：依年齡分配家務、建立生活常規、獎勵不收買、螢幕時間與手足公平。",
  },
  news: {
    title: "最新消息",
    lead: "{{productName}}的產品更新與公告。",
    description: "{{productName}}的產品更新與公告。",
  },
  learningResources: {
    title: "學習資源",
    lead: "依主題整理培養孩子好習慣的重點做法，並連結到家長學堂的延伸閱讀。",
    description: "習慣養成、責任感、適齡家務與螢幕時間的學習資源。",
  },
} satisfies Record<string, PageIntro>;
