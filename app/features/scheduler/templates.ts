import type { TaskDraft } from "./model";
import type { Weekday } from "./week";

/** Age templates: ready-made tasks a parent adds with one tap, then adjusts. */
export interface AgeTemplate {
  id: string;
  label: string;
  tasks: TaskDraft[];
}

const everyDay: Weekday[] = [0, 1, 2, 3, 4, 5, 6];
const schoolDays: Weekday[] = [0, 1, 2, 3, 4];
/** Evenings before a school day: Sunday to Thursday. */
const schoolNights: Weekday[] = [0, 1, 2, 3, 6];
const weekend: Weekday[] = [5, 6];

export const ageTemplates: AgeTemplate[] = [
  {
    id: "3-5",
    label: "3–5 歲",
    tasks: [
      { name: "起床刷牙", icon: "🪥", days: everyDay, timeOfDay: "早上" },
      { name: "自己穿衣服", icon: "👕", days: everyDay, timeOfDay: "早上" },
      { name: "好好吃完早餐", icon: "🥣", days: everyDay, timeOfDay: "早上" },
      { name: "鞋子擺整齊", icon: "👟", days: everyDay, timeOfDay: "下午" },
      { name: "玩具收回原位", icon: "🧸", days: everyDay, timeOfDay: "晚上" },
      { name: "洗澎澎", icon: "🛁", days: everyDay, timeOfDay: "晚上" },
      { name: "睡前刷牙", icon: "🪥", days: everyDay, timeOfDay: "晚上" },
      { name: "睡前一起看故事書", icon: "📚", days: everyDay, timeOfDay: "晚上" },
    ],
  },
  {
    id: "6-8",
    label: "6–8 歲",
    tasks: [
      { name: "起床摺棉被", icon: "🛏️", days: everyDay, timeOfDay: "早上" },
      { name: "刷牙洗臉", icon: "🪥", days: everyDay, timeOfDay: "早上" },
      { name: "寫完功課", icon: "✏️", days: schoolDays, timeOfDay: "下午" },
      { name: "閱讀 20 分鐘", icon: "📚", days: everyDay, timeOfDay: "晚上" },
      { name: "幫忙擺碗筷", icon: "🍽️", days: everyDay, timeOfDay: "晚上" },
      { name: "自己洗澡", icon: "🛁", days: everyDay, timeOfDay: "晚上" },
      { name: "整理明天的書包", icon: "🎒", days: schoolNights, timeOfDay: "晚上" },
      { name: "九點前上床睡覺", icon: "🌙", days: everyDay, timeOfDay: "晚上" },
    ],
  },
  {
    id: "9-12",
    label: "9–12 歲",
    tasks: [
      { name: "聽鬧鐘自己起床", icon: "⏰", days: schoolDays, timeOfDay: "早上" },
      { name: "整理床鋪", icon: "🛏️", days: everyDay, timeOfDay: "早上" },
      { name: "寫完功課並訂正", icon: "✏️", days: schoolDays, timeOfDay: "下午" },
      { name: "運動 30 分鐘", icon: "🏃", days: everyDay, timeOfDay: "下午" },
      { name: "練習才藝 30 分鐘", icon: "🎹", days: weekend, timeOfDay: "下午" },
      { name: "洗碗或擦桌子", icon: "🍽️", days: everyDay, timeOfDay: "晚上" },
      { name: "倒垃圾、做資源回收", icon: "🗑️", days: [0, 2, 4], timeOfDay: "晚上" },
      { name: "複習今天的功課", icon: "📚", days: schoolDays, timeOfDay: "晚上" },
      { name: "整理明天的書包", icon: "🎒", days: schoolNights, timeOfDay: "晚上" },
      { name: "準時收起手機平板", icon: "🌙", days: everyDay, timeOfDay: "晚上" },
    ],
  },
];
