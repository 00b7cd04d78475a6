import type { HomeContent } from "./types";

export const home: HomeContent = {
  intro: {
    title: "首頁",
    lead: "{{productName}}是為台灣家庭設計的任務管理 App：家長設定任務，孩子完成任務獲得點數與星星，再用點數兌換獎勵、實現願望。",
    description: "為台灣家庭設計的遊戲化任務管理 App，幫助 3 到 12 歲的孩子養成獨立與負責的好習慣。",
  },
  hero: {
    heading: "讓孩子在遊戲中，養成獨立與負責的好習慣",
    image: { src: "/images/home/hero.svg", width: 560, height: 420 },
  },
  steps: {
    title: "三個步驟開始",
    items: [
      {
        title: "家長設定任務",
        text: "依照孩子的年齡和作息，建立刷牙、整理書包、幫忙擺餐具等任務卡，並安排在早上、下午或晚上。",
        image: { src: "/images/home/step-tasks.svg", width: 160, height: 160 },
      },
      {
        title: "孩子完成任務，獲得點數與星星",
        text: "孩子查看自己的每日行程，完成一項就點一下。點數和星星立刻累積，進步看得見。",
        image: { src: "/images/home/step-stars.svg", width: 160, height: 160 },
      },
      {
        title: "兌換獎勵，實現願望",
        text: "用累積的點數兌換全家一起決定的獎勵，或存起來實現更大的願望，練習計畫與等待。",
        image: { src: "/images/home/step-rewards.svg", width: 160, height: 160 },
      },
    ],
  },
  approach: {
    title: "像玩遊戲一樣，完成每天的任務",
    points: [
      { title: "任務就是關卡", text: "每天的生活小事變成一張張任務卡，孩子一關一關挑戰，成就感比說教更有力量。" },
      { title: "進步看得見", text: "點數、星星和成就徽章記錄每一次努力，孩子清楚知道自己離目標還有多遠。" },
      { title: "獎勵由家庭決定", text: "獎勵和願望由家長與孩子一起討論，可以是一起去公園，也可以是多聽一個故事。" },
      { title: "鼓勵而不比較", text: "沒完成的任務不扣點，兄弟姊妹各自有自己的目標，重視的是每個孩子自己的進步。" },
    ],
  },
  ages: {
    title: "適合 3 到 12 歲的孩子",
    text: "任務的難度和呈現方式可以隨孩子成長調整，從家長陪同到自己規劃，一路陪孩子長大。",
    bands: [
      { label: "3 到 5 歲", text: "圖示清楚的任務卡，由家長陪著一起完成、一起點選。" },
      { label: "6 到 8 歲", text: "自己查看每日行程，做完就打勾，開始練習時間管理。" },
      { label: "9 到 12 歲", text: "自己安排任務的順序，存點數實現較大的願望。" },
    ],
  },
  faqTeaser: {
    title: "常見問題",
    questionIds: ["pricing-free", "privacy-children", "guest-what"],
  },
  closing: {
    title: "今天就和孩子一起開始第一個任務",
    text: "免費註冊就能使用，也可以先用訪客身分試用。",
  },
};
