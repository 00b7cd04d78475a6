import { maxTables, tableTitle, type SchedulerState } from "./model";

interface TableSwitcherProps {
  schedule: SchedulerState;
  onSelect: (id: string) => void;
  onAdd: () => void;
}

/** One table per child: switch between them, or start one for another child. */
export function TableSwitcher({ schedule, onSelect, onAdd }: TableSwitcherProps) {
  return (
    <div className="scheduler-actions table-switcher no-print" role="group" aria-label="選擇孩子的任務表">
      {schedule.tables.map((table) => (
        <button
          key={table.id}
          type="button"
          className={`button${table.id === schedule.activeTableId ? " button--primary" : ""}`}
          aria-pressed={table.id === schedule.activeTableId}
          onClick={() => onSelect(table.id)}
        >
          {tableTitle(table)}
        </button>
      ))}
      <button type="button" className="button" onClick={onAdd} disabled={schedule.tables.length >= maxTables}>
        ＋ 再做一張表
      </button>
    </div>
  );
}
