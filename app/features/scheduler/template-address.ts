import { maxTasksPerTable, type TaskDraft } from "./model";
import { ageTemplates } from "./templates";

/**
 * The template picker is a GET form, so it works from the server's HTML: without JavaScript (or tapped before the
 * page's scripts arrive) 加入 and 全部加入 send the address `?show=<age>&task=<name>…&all=<age>`, and the page is
 * rendered with those template tasks in its table, ready to print. With JavaScript the same tasks are added to
 * the table saved in the browser, once it is read. Only template tasks travel this way (by name: nothing else to
 * trust), never a parent's own.
 */
export const addressFields = {
  show: "show",
  task: "task",
  all: "all",
} as const;

export const defaultAgeId = ageTemplates[1]?.id ?? "";

const templateTasks = new Map(
  ageTemplates.flatMap((template) => template.tasks.map((task) => [task.name, task] as const)),
);

export interface TemplateAddress {
  /** The age whose template is shown. */
  ageId: string;
  /** The template tasks the address asks for, in order, each once, at most a table's worth. */
  tasks: TaskDraft[];
}

export function readTemplateAddress(search: URLSearchParams): TemplateAddress {
  const known = (id: string | null) => (id && ageTemplates.some((template) => template.id === id) ? id : null);
  const all = ageTemplates.find((template) => template.id === search.get(addressFields.all));
  const names = [...search.getAll(addressFields.task), ...(all?.tasks.map((task) => task.name) ?? [])];
  const tasks = [...new Set(names)].flatMap((name) => templateTasks.get(name) ?? []).slice(0, maxTasksPerTable);
  return {
    ageId: known(search.get(addressFields.show)) ?? all?.id ?? defaultAgeId,
    tasks,
  };
}
