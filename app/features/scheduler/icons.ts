/** The built-in icon set: emoji every phone shows, each with a name for screen readers. */
export const taskIcons = [
  { icon: "🪥", label: "牙刷" },
  { icon: "🛏️", label: "床" },
  { icon: "👕", label: "衣服" },
  { icon: "🥣", label: "早餐" },
  { icon: "🎒", label: "書包" },
  { icon: "✏️", label: "鉛筆" },
  { icon: "📚", label: "書本" },
  { icon: "🎹", label: "鋼琴" },
  { icon: "🧸", label: "玩具" },
  { icon: "🍽️", label: "碗筷" },
  { icon: "🌱", label: "植物" },
  { icon: "🐶", label: "寵物" },
  { icon: "🛁", label: "洗澡" },
  { icon: "🧹", label: "掃把" },
  { icon: "🗑️", label: "垃圾桶" },
  { icon: "🏃", label: "運動" },
  { icon: "👟", label: "鞋子" },
  { icon: "💧", label: "喝水" },
  { icon: "⏰", label: "鬧鐘" },
  { icon: "🌙", label: "睡覺" },
  { icon: "⭐", label: "星星" },
] as const;

export const defaultIcon = "⭐";
