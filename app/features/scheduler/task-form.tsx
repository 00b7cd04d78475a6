import { useId, useState } from "react";
import { taskIcons, defaultIcon } from "./icons";
import { normaliseDays, taskNameMaxLength, timesOfDay, type TaskDraft, type TimeOfDay } from "./model";
import { allWeekdays, weekdayName, type Weekday } from "./week";

const blankDraft: TaskDraft = { name: "", icon: defaultIcon, days: allWeekdays, timeOfDay: "早上" };

const errorText = { name: "請寫下任務名稱。", days: "請至少選一天。" } as const;
type FormError = keyof typeof errorText;

interface TaskFormProps {
  /** The task being edited; a new task when absent. */
  initial?: TaskDraft;
  disabled?: boolean;
  onSubmit: (draft: TaskDraft) => void;
  onCancel?: () => void;
}

/** Adds a task, or edits one: name, icon, time of day and the days it applies to. */
export function TaskForm({ initial, disabled = false, onSubmit, onCancel }: TaskFormProps) {
  const [draft, setDraft] = useState<TaskDraft>(initial ?? blankDraft);
  const [error, setError] = useState<FormError | null>(null);
  const fieldId = useId();
  const editing = initial !== undefined;

  function toggleDay(day: Weekday) {
    const days = draft.days.includes(day) ? draft.days.filter((other) => other !== day) : [...draft.days, day];
    setDraft({ ...draft, days: normaliseDays(days) });
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = draft.name.trim();
    if (!name) return setError("name");
    if (draft.days.length === 0) return setError("days");
    setError(null);
    onSubmit({ ...draft, name });
    if (!editing) setDraft({ ...blankDraft, timeOfDay: draft.timeOfDay });
  }

  return (
    <form className="task-form" onSubmit={submit} noValidate aria-label={editing ? "修改任務" : "新增任務"}>
      <div className="task-form__field">
        <label htmlFor={`${fieldId}-name`}>任務名稱</label>
        <input
          id={`${fieldId}-name`}
          className="scheduler-input"
          value={draft.name}
          maxLength={taskNameMaxLength}
          placeholder="例如：刷牙、收玩具"
          aria-describedby={error === "name" ? `${fieldId}-error` : undefined}
          aria-invalid={error === "name" || undefined}
          onChange={(event) => setDraft({ ...draft, name: event.target.value })}
        />
      </div>

      <fieldset className="task-form__icons">
        <legend>圖示</legend>
        {taskIcons.map(({ icon, label }) => (
          <label key={icon} className="choice choice--icon">
            <input
              type="radio"
              name={`${fieldId}-icon`}
              value={icon}
              checked={draft.icon === icon}
              onChange={() => setDraft({ ...draft, icon })}
            />
            <span aria-hidden="true">{icon}</span>
            <span className="scheduler-sr-only">{label}</span>
          </label>
        ))}
      </fieldset>

      <fieldset className="task-form__choices">
        <legend>時段</legend>
        {timesOfDay.map((time: TimeOfDay) => (
          <label key={time} className="choice">
            <input
              type="radio"
              name={`${fieldId}-time`}
              value={time}
              checked={draft.timeOfDay === time}
              onChange={() => setDraft({ ...draft, timeOfDay: time })}
            />
            <span>{time}</span>
          </label>
        ))}
      </fieldset>

      <fieldset className="task-form__choices">
        <legend>哪幾天要做</legend>
        {allWeekdays.map((day) => (
          <label key={day} className="choice">
            <input type="checkbox" checked={draft.days.includes(day)} onChange={() => toggleDay(day)} />
            <span>{weekdayName(day)}</span>
          </label>
        ))}
      </fieldset>

      {error && (
        <p id={`${fieldId}-error`} className="scheduler-error" role="alert">
          {errorText[error]}
        </p>
      )}
      <div className="scheduler-actions">
        <button type="submit" className="button button--primary" disabled={disabled}>
          {editing ? "儲存修改" : "新增任務"}
        </button>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            取消
          </button>
        )}
      </div>
    </form>
  );
}
