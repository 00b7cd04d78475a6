import { cellCount, starCount, tableTitle, tickKey, type ChildTable } from "./model";
import { allWeekdays, weekdayName, weekdays, weekLabel, type Weekday } from "./week";

interface TickTableProps {
  table: ChildTable;
  onToggle: (taskId: string, day: Weekday) => void;
}

/** The week grid a child ticks (on screen) or fills in with stickers (on paper). */
export function TickTable({ table, onToggle }: TickTableProps) {
  const week = table.weekStart ? weekLabel(table.weekStart) : "本週";
  return (
    <>
      {/* Above the region that scrolls sideways on a phone, so the title and the stars stay in view. */}
      <p className="tick-table__caption" id="tick-table-caption">
        <span className="tick-table__title">{tableTitle(table)}</span> <span className="tick-table__week">{week}</span>{" "}
        <span className="tick-table__stars">
          本週星星：{starCount(table)} / {cellCount(table)} 顆
        </span>
      </p>
      <div className="tick-table-scroll" role="region" aria-label={`${tableTitle(table)}（可左右捲動）`} tabIndex={0}>
        <table
          className="tick-table"
          aria-labelledby="tick-table-caption"
          style={
            {
              "--task-rows": Math.max(table.tasks.length, 1),
            } as React.CSSProperties
          }
        >
          <thead>
            <tr>
              <th scope="col" className="tick-table__task-heading">
                任務
              </th>
              {allWeekdays.map((day) => (
                <th key={day} scope="col" className={day >= 5 ? "tick-table__weekend" : undefined}>
                  <abbr title={weekdayName(day)}>週{weekdays[day]}</abbr>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.tasks.length === 0 ? (
              <tr>
                <td colSpan={8} className="tick-table__empty">
                  還沒有任務。從下面的範本挑幾項，或自己新增一項吧！
                </td>
              </tr>
            ) : (
              table.tasks.map((task) => (
                <tr key={task.id}>
                  <th scope="row" className="tick-table__task">
                    <span className="tick-table__icon" aria-hidden="true">
                      {task.icon}
                    </span>
                    <span className="tick-table__name">{task.name}</span>
                    <span className="tick-table__time">{task.timeOfDay}</span>
                  </th>
                  {allWeekdays.map((day) =>
                    task.days.includes(day) ? (
                      <td key={day} className="tick-cell">
                        <label className="tick">
                          <input
                            type="checkbox"
                            className="tick__input"
                            aria-label={`${weekdayName(day)} ${task.name} 完成`}
                            checked={table.ticks.includes(tickKey(task.id, day))}
                            onChange={() => onToggle(task.id, day)}
                          />
                          <span className="tick__mark" aria-hidden="true">
                            ★
                          </span>
                        </label>
                      </td>
                    ) : (
                      <td key={day} className="tick-cell tick-cell--off">
                        <span className="scheduler-sr-only">不用做</span>
                      </td>
                    ),
                  )}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
