import { useEffect, useRef, useState } from "react";
import type { Task, TaskDraft } from "./model";
import { TaskForm } from "./task-form";
import { daysSummary } from "./week";

interface TaskListProps {
  tasks: Task[];
  onMove: (id: string, toIndex: number) => void;
  onUpdate: (id: string, draft: TaskDraft) => void;
  onRemove: (id: string) => void;
  announce: (message: string) => void;
}

/** The row buttons; after a change, focus returns to one of them so keyboard users keep their place. */
type RowAction = "up" | "down" | "edit" | "remove";

/** The table's tasks in order: drag a row, or use the move buttons from the keyboard. */
export function TaskList({ tasks, onMove, onUpdate, onRemove, announce }: TaskListProps) {
  const [editingId, setEditingId] = useState<string | null>(null);
  const [draggedId, setDraggedId] = useState<string | null>(null);
  // Moved rows are re-inserted in the DOM, removed and edited rows lose their buttons: focus would drop to
  // the page's start without this.
  const [focusTarget, setFocusTarget] = useState<{ id: string; action: RowAction } | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    if (!focusTarget) return;
    const row = listRef.current?.querySelector(`[data-task-id="${focusTarget.id}"]`);
    const buttons = [...(row?.querySelectorAll<HTMLButtonElement>("button[data-action]") ?? [])];
    const wanted = buttons.find((button) => button.dataset.action === focusTarget.action && !button.disabled);
    (wanted ?? buttons.find((button) => !button.disabled))?.focus();
  }, [focusTarget, tasks]);

  function move(task: Task, toIndex: number, action?: RowAction) {
    onMove(task.id, toIndex);
    announce(`已把「${task.name}」移到第 ${toIndex + 1} 項。`);
    if (action) setFocusTarget({ id: task.id, action });
  }

  function remove(task: Task, index: number) {
    const neighbour = tasks[index + 1] ?? tasks[index - 1];
    onRemove(task.id);
    announce(`已刪除「${task.name}」。`);
    if (neighbour) setFocusTarget({ id: neighbour.id, action: "remove" });
  }

  function closeEditor(task: Task) {
    setEditingId(null);
    setFocusTarget({ id: task.id, action: "edit" });
  }

  function drop(target: number) {
    const task = tasks.find((candidate) => candidate.id === draggedId);
    if (task) move(task, target);
    setDraggedId(null);
  }

  if (tasks.length === 0) return null;

  return (
    <ol className="task-list" ref={listRef}>
      {tasks.map((task, index) =>
        task.id === editingId ? (
          <li key={task.id} className="task-list__item task-list__item--editing" data-task-id={task.id}>
            <TaskForm
              initial={task}
              onSubmit={(draft) => {
                onUpdate(task.id, draft);
                closeEditor(task);
                announce(`已更新「${draft.name}」。`);
              }}
              onCancel={() => closeEditor(task)}
            />
          </li>
        ) : (
          <li
            key={task.id}
            className={`task-list__item${draggedId === task.id ? " task-list__item--dragged" : ""}`}
            data-task-id={task.id}
            draggable
            onDragStart={(event) => {
              event.dataTransfer.effectAllowed = "move";
              event.dataTransfer.setData("text/plain", task.id);
              setDraggedId(task.id);
            }}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => {
              event.preventDefault();
              drop(index);
            }}
            onDragEnd={() => setDraggedId(null)}
          >
            <span className="task-list__handle" aria-hidden="true">
              ⋮⋮
            </span>
            <span className="task-list__icon" aria-hidden="true">
              {task.icon}
            </span>
            <span className="task-list__text">
              <span className="task-list__name">{task.name}</span>
              <span className="task-list__meta">
                {task.timeOfDay}・{daysSummary(task.days)}
              </span>
            </span>
            <span className="task-list__buttons">
              <button
                type="button"
                className="icon-button"
                data-action="up"
                aria-label={`上移「${task.name}」`}
                disabled={index === 0}
                onClick={() => move(task, index - 1, "up")}
              >
                ↑
              </button>
              <button
                type="button"
                className="icon-button"
                data-action="down"
                aria-label={`下移「${task.name}」`}
                disabled={index === tasks.length - 1}
                onClick={() => move(task, index + 1, "down")}
              >
                ↓
              </button>
              <button
                type="button"
                className="icon-button"
                data-action="edit"
                aria-label={`編輯「${task.name}」`}
                onClick={() => setEditingId(task.id)}
              >
                編輯
              </button>
              <button
                type="button"
                className="icon-button icon-button--danger"
                data-action="remove"
                aria-label={`刪除「${task.name}」`}
                onClick={() => remove(task, index)}
              >
                刪除
              </button>
            </span>
          </li>
        ),
      )}
    </ol>
  );
}
