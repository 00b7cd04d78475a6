import { describe, expect, it } from "vitest";
import { maxTasksPerTable } from "./model";
import { defaultAgeId, readTemplateAddress } from "./template-address";
import { ageTemplates } from "./templates";

describe("the template picker's address (its form without JavaScript)", () => {
  it("reads the shown age and the template tasks by name, each once, ignoring names no template has", () => {
    const address = readTemplateAddress(
      new URLSearchParams("show=3-5&task=刷牙洗臉&task=刷牙洗臉&task=<script>&task=寫完功課"),
    );
    expect(address.ageId).toBe("3-5");
    expect(address.tasks.map((task) => task.name)).toEqual(["刷牙洗臉", "寫完功課"]);
  });

  it("adds a whole template with `all`, after the tasks already there, and keeps to a table's size", () => {
    const sixToEight = ageTemplates.find((template) => template.id === "6-8")!;
    const address = readTemplateAddress(new URLSearchParams("task=起床刷牙&all=6-8"));
    expect(address.ageId).toBe("6-8");
    expect(address.tasks.map((task) => task.name)).toEqual(["起床刷牙", ...sixToEight.tasks.map((task) => task.name)]);
    const names = new Set(ageTemplates.flatMap((template) => template.tasks.map((task) => task.name)));
    expect(names.size).toBeGreaterThan(maxTasksPerTable);
    const many = new URLSearchParams([...names].map((name) => ["task", name]));
    expect(readTemplateAddress(many).tasks).toHaveLength(maxTasksPerTable);
  });

  it("shows the default age for an unknown or missing one", () => {
    expect(readTemplateAddress(new URLSearchParams("show=99")).ageId).toBe(defaultAgeId);
    expect(readTemplateAddress(new URLSearchParams("")).tasks).toEqual([]);
  });
});
