import { useState } from "react";
import type { TaskDraft } from "./model";
import { ageTemplates } from "./templates";
import { daysSummary } from "./week";

interface TemplatePickerProps {
  existingNames: string[];
  roomLeft: number;
  onAdd: (drafts: TaskDraft[]) => void;
}

/** Quick-add from age templates: pick an age, add one task or all of them. */
export function TemplatePicker({ existingNames, roomLeft, onAdd }: TemplatePickerProps) {
  const [ageId, setAgeId] = useState(ageTemplates[1]?.id ?? "");
  const template = ageTemplates.find((candidate) => candidate.id === ageId);
  const missing = template?.tasks.filter((task) => !existingNames.includes(task.name)) ?? [];

  return (
    <div className="template-picker">
      <div className="scheduler-actions" role="group" aria-label="孩子的年齡">
        {ageTemplates.map((age) => (
          <button
            key={age.id}
            type="button"
            className={`button${age.id === ageId ? " button--primary" : ""}`}
            aria-pressed={age.id === ageId}
            onClick={() => setAgeId(age.id)}
          >
            {age.label}
          </button>
        ))}
      </div>
      {template && (
        <>
          <ul className="template-picker__list">
            {template.tasks.map((task) => {
              const added = existingNames.includes(task.name);
              return (
                <li key={task.name} className="template-picker__item">
                  <span aria-hidden="true">{task.icon}</span>
                  <span className="template-picker__text">
                    {task.name}
                    <span className="task-list__meta">
                      {task.timeOfDay}・{daysSummary(task.days)}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={added ? `「${task.name}」已加入` : `加入「${task.name}」`}
                    disabled={added || roomLeft === 0}
                    onClick={() => onAdd([task])}
                  >
                    {added ? "已加入" : "加入"}
                  </button>
                </li>
              );
            })}
          </ul>
          <button
            type="button"
            className="button button--primary"
            disabled={missing.length === 0 || roomLeft === 0}
            onClick={() => onAdd(missing.slice(0, roomLeft))}
          >
            全部加入（{template.label}）
          </button>
        </>
      )}
    </div>
  );
}
