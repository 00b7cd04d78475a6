import { describe, expect, it } from "vitest";
import { loadSchedule, saveSchedule, storageKey, unreadableKey } from "./storage";

const today = new Date(2026, 10, 25);

/** A Map-backed Storage; `failing` makes every call throw, as blocked or full storage does. */
function memoryStorage(entries: Record<string, string> = {}, failing = false): Storage {
  const map = new Map(Object.entries(entries));
  const guard = () => {
    if (failing) throw new DOMException("blocked", "SecurityError");
  };
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    key: (index) => [...map.keys()][index] ?? null,
    getItem: (key) => (guard(), map.get(key) ?? null),
    setItem: (key, value) => (guard(), void map.set(key, String(value))),
    removeItem: (key) => void map.delete(key),
  };
}

const versionOne = {
  version: 1,
  childName: "小美",
  weekStart: "2026-11-16",
  tasks: [
    { id: "brush", name: "刷牙", icon: "🪥", days: [0, 1, 2, 3, 4, 5, 6], time: "早上" },
    { id: "toys", name: "收玩具", icon: "🧸", days: [5, 6], time: "晚上" },
  ],
  done: { brush: [0, 1], toys: [5] },
};

describe("saved tables in the browser", () => {
  it("gives a first visit one blank table of this week", () => {
    const { state, problem } = loadSchedule(memoryStorage(), today);
    expect(problem).toBeUndefined();
    expect(state.tables).toHaveLength(1);
    expect(state.tables[0]).toMatchObject({ childName: "", weekStart: "2026-11-23", tasks: [], ticks: [] });
    expect(state.activeTableId).toBe(state.tables[0]?.id);
  });

  it("saves and loads the same tables", () => {
    const storage = memoryStorage();
    const { state } = loadSchedule(storage, today);
    const named = { ...state, tables: state.tables.map((table) => ({ ...table, childName: "小明" })) };
    expect(saveSchedule(storage, named)).toBe(true);
    expect(JSON.parse(storage.getItem(storageKey) ?? "").version).toBe(2);
    expect(loadSchedule(storage, today)).toEqual({ state: named });
  });

  it("migrates the version 1 shape (one table, done days per task) to version 2", () => {
    const storage = memoryStorage({ [storageKey]: JSON.stringify(versionOne) });
    const { state, problem } = loadSchedule(storage, today);
    expect(problem).toBeUndefined();
    expect(state).toEqual({
      activeTableId: "table-1",
      tables: [
        {
          id: "table-1",
          childName: "小美",
          weekStart: "2026-11-16",
          tasks: [
            { id: "brush", name: "刷牙", icon: "🪥", days: [0, 1, 2, 3, 4, 5, 6], timeOfDay: "早上" },
            { id: "toys", name: "收玩具", icon: "🧸", days: [5, 6], timeOfDay: "晚上" },
          ],
          ticks: ["brush:0", "brush:1", "toys:5"],
        },
      ],
    });
  });

  it.each([
    ["text that is not JSON", "{not json"],
    ["JSON of an unknown version", JSON.stringify({ version: 99, tables: [] })],
    ["a table without tasks list", JSON.stringify({ version: 2, activeTableId: "a", tables: [{ id: "a" }] })],
    ["null", "null"],
  ])("never crashes on %s: starts a fresh table, keeps the old text aside and says so", (_label, text) => {
    const storage = memoryStorage({ [storageKey]: text });
    const { state, problem } = loadSchedule(storage, today);
    expect(problem).toBe("unreadable");
    expect(state.tables).toHaveLength(1);
    expect(storage.getItem(unreadableKey)).toBe(text);
  });

  it("repairs what the schema allows but the model forbids", () => {
    const saved = {
      version: 2,
      activeTableId: "gone",
      tables: [
        {
          id: "a",
          childName: "小明",
          weekStart: "2026-11-23",
          tasks: [
            { id: "x", name: "刷牙", icon: "🪥", days: [3, 0, 0], timeOfDay: "早上" },
            { id: "x", name: "重複的", icon: "⭐", days: [1], timeOfDay: "晚上" },
          ],
          ticks: ["x:0", "x:0", "x:5", "ghost:1"],
        },
      ],
    };
    const { state } = loadSchedule(memoryStorage({ [storageKey]: JSON.stringify(saved) }), today);
    expect(state.activeTableId).toBe("a");
    expect(state.tables[0]?.tasks).toEqual([{ id: "x", name: "刷牙", icon: "🪥", days: [0, 3], timeOfDay: "早上" }]);
    expect(state.tables[0]?.ticks).toEqual(["x:0"]);
  });

  it("reports blocked storage instead of throwing, on load and on save", () => {
    const blocked = memoryStorage({}, true);
    const { state, problem } = loadSchedule(blocked, today);
    expect(problem).toBe("unavailable");
    expect(saveSchedule(blocked, state)).toBe(false);
    expect(loadSchedule(undefined, today).problem).toBe("unavailable");
  });
});
