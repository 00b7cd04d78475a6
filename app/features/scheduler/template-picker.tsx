import { useState, type MouseEvent } from "react";
import type { TaskDraft } from "./model";
import { addressFields } from "./template-address";
import { ageTemplates } from "./templates";
import { daysSummary } from "./week";

interface TemplatePickerProps {
  /** The age shown first (the address's, else the default). */
  initialAgeId: string;
  existingNames: string[];
  roomLeft: number;
  onAdd: (drafts: TaskDraft[]) => void;
}

/**
 * Quick-add from age templates: pick an age, add one task or all of them. A GET form (template-address.ts): its
 * buttons submit it when the page's scripts are not running, and do their work in the page when they are.
 */
export function TemplatePicker({ initialAgeId, existingNames, roomLeft, onAdd }: TemplatePickerProps) {
  const [ageId, setAgeId] = useState(initialAgeId);
  const template = ageTemplates.find((candidate) => candidate.id === ageId);
  const missing = template?.tasks.filter((task) => !existingNames.includes(task.name)) ?? [];
  /** With scripts, a button works in the page and the form is not sent. */
  const inPage = (work: () => void) => (event: MouseEvent) => {
    event.preventDefault();
    work();
  };

  return (
    <form className="template-picker" method="get" action="/task-scheduler">
      {existingNames.map((name) => (
        <input key={name} type="hidden" name={addressFields.task} value={name} />
      ))}
      <div className="scheduler-actions" role="group" aria-label="孩子的年齡">
        {ageTemplates.map((age) => (
          <button
            key={age.id}
            type="submit"
            name={addressFields.show}
            value={age.id}
            className={`button${age.id === ageId ? " button--primary" : ""}`}
            aria-pressed={age.id === ageId}
            onClick={inPage(() => setAgeId(age.id))}
          >
            {age.label}
          </button>
        ))}
      </div>
      {template && (
        <>
          <input type="hidden" name={addressFields.show} value={template.id} />
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
                    type="submit"
                    name={addressFields.task}
                    value={task.name}
                    className="icon-button"
                    aria-label={added ? `「${task.name}」已加入` : `加入「${task.name}」`}
                    disabled={added || roomLeft === 0}
                    onClick={inPage(() => onAdd([task]))}
                  >
                    {added ? "已加入" : "加入"}
                  </button>
                </li>
              );
            })}
          </ul>
          <button
            type="submit"
            name={addressFields.all}
            value={template.id}
            className="button button--primary"
            disabled={missing.length === 0 || roomLeft === 0}
            onClick={inPage(() => onAdd(missing.slice(0, roomLeft)))}
          >
            全部加入（{template.label}）
          </button>
        </>
      )}
    </form>
  );
}
