import type { TutorialContent } from "./types";

export const tutorial: TutorialContent = {
  intro: {
    title: "使用教學",
    lead: "跟著以下五個步驟，十分鐘內就能為孩子建立第一份任務清單。",
    description: "一步一步學會使用{{productName}}：註冊、新增孩子、設定任務、完成任務與兌換獎勵。",
  },
  steps: [
    {
      title: "註冊帳號，或先以訪客身分試用",
      text: "在註冊頁面填寫顯示名稱、電子郵件與密碼，並到信箱點選驗證連結。想先看看的話，可以在登入頁面選擇「以訪客身分試用」。",
      image: { src: "/images/tutorial/step-1-signup.svg", width: 320, height: 240 },
      tips: ["沒收到驗證信時，先檢查垃圾郵件分類", "訪客帳號之後可以升級，資料會保留"],
    },
    {
      title: "新增孩子",
      text: "進入 App 後，為每個孩子建立一個檔案，填寫暱稱並挑選喜歡的頭像。家裡有好幾個孩子，就分別新增。",
      image: { src: "/images/tutorial/step-2-children.svg", width: 320, height: 240 },
      tips: ["建議使用暱稱，不必填寫全名", "每個孩子的任務與點數分開計算"],
    },
    {
      title: "設定任務卡與時段",
      text: "為孩子挑選或新增任務，例如「刷牙」「整理書包」「擺餐具」，設定要在早上、下午或晚上完成，以及每週哪幾天要做，再決定完成後可以得到幾點。",
      image: { src: "/images/tutorial/step-3-tasks.svg", width: 320, height: 240 },
      tips: ["一開始三到五個任務就好", "任務描述越具體，孩子越容易做到"],
    },
    {
      title: "孩子完成任務，累積點數與星星",
      text: "孩子開啟每日行程，就能看到今天要做的事。完成一項就點一下，點數與星星立刻累積；家長可以在儀表板看到每個孩子的進度。",
      image: { src: "/images/tutorial/step-4-complete.svg", width: 320, height: 240 },
      tips: ["把平板或手機放在固定位置，方便孩子查看", "看到孩子完成時，具體說出你看到的努力"],
    },
    {
      title: "兌換獎勵，實現願望",
      text: "和孩子一起訂出獎勵清單，例如「週末選晚餐」或「一起去公園」。孩子點數足夠時提出兌換，由家長確認後完成。",
      image: { src: "/images/tutorial/step-5-rewards.svg", width: 320, height: 240 },
      tips: ["獎勵不一定是物質，陪伴往往最受歡迎", "大願望可以設定較高點數，練習存點數"],
    },
  ],
  closing: {
    title: "準備好了嗎？",
    text: "免費註冊，今天就和孩子一起完成第一個任務。",
  },
};
