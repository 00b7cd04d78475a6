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

type Direction = "up" | "down";

/** The table's tasks in order: drag a row, or use the move buttons from the keyboard. */
export function TaskList({ tasks, onMove, onUpdate, onRemove, announce }: TaskListProps) {
  const [editingId, setEditingId] = useState<string | null>(null);
  const [draggedId, setDraggedId] = useState<string | null>(null);
  // After a move the row's buttons are re-ordered in the DOM; keep keyboard focus where the parent left it.
  const [focusAfterMove, setFocusAfterMove] = useState<{ id: string; direction: Direction } | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    if (!focusAfterMove) return;
    const row = listRef.current?.querySelector(`[data-task-id="${focusAfterMove.id}"]`);
    const wanted = row?.querySelector<HTMLButtonElement>(`[data-move="${focusAfterMove.direction}"]`);
    const other = row?.querySelector<HTMLButtonElement>(`[data-move="${focusAfterMove.direction === "up" ? "down" : "up"}"]`);
    (wanted && !wanted.disabled ? wanted : other)?.focus();
  }, [focusAfterMove, tasks]);

  function move(task: Task, toIndex: number, direction?: Direction) {
    onMove(task.id, toIndex);
    announce(`已把「${task.name}」移到第 ${toIndex + 1} 項。`);
    if (direction) setFocusAfterMove({ id: task.id, direction });
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
                setEditingId(null);
                announce(`已更新「${draft.name}」。`);
              }}
              onCancel={() => setEditingId(null)}
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
                data-move="up"
                aria-label={`上移「${task.name}」`}
                disabled={index === 0}
                onClick={() => move(task, index - 1, "up")}
              >
                ↑
              </button>
              <button
                type="button"
                className="icon-button"
                data-move="down"
                aria-label={`下移「${task.name}」`}
                disabled={index === tasks.length - 1}
                onClick={() => move(task, index + 1, "down")}
              >
                ↓
              </button>
              <button type="button" className="icon-button" aria-label={`編輯「${task.name}」`} onClick={() => setEditingId(task.id)}>
                編輯
              </button>
              <button
                type="button"
                className="icon-button icon-button--danger"
                aria-label={`刪除「${task.name}」`}
                onClick={() => {
                  onRemove(task.id);
                  announce(`已刪除「${task.name}」。`);
                }}
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
