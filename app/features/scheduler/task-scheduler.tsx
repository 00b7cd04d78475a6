import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { useScripted } from "~/components/use-scripted";
import { AppInvite } from "./app-invite";
import { BackupControls } from "./backup-controls";
import {
  canAddTask,
  childNameMaxLength,
  maxTasksPerTable,
  newId,
  tableTitle,
  type ChildTable,
  type SchedulerState,
  type TaskDraft,
} from "./model";
import { activeTable } from "./scheduler-reducer";
import { TableSwitcher } from "./table-switcher";
import { TaskForm } from "./task-form";
import { TaskList } from "./task-list";
import { TemplatePicker } from "./template-picker";
import { readTemplateAddress } from "./template-address";
import { TickTable } from "./tick-table";
import { useScheduler } from "./use-scheduler";
import "./scheduler.css";

/**
 * What the server and the first render show: one table holding the template tasks the address asks for (none
 * usually), with ids made from their place, so hydration changes nothing visible.
 */
function addressSchedule(tasks: TaskDraft[]): SchedulerState {
  const table: ChildTable = {
    id: "",
    childName: "",
    weekStart: "",
    tasks: tasks.map((task, index) => ({ ...task, id: `address-${index}` })),
    ticks: [],
  };
  return { tables: [table], activeTableId: "" };
}

const problemText = {
  unreadable: "之前存在這台裝置上的任務表讀不出來，所以先幫你開了一張新的表。原本的資料另外留在瀏覽器裡，沒有被覆蓋。",
  unavailable: "這個瀏覽器目前不讓網頁保存資料（可能是無痕模式）。任務表還是可以用，但關掉頁面前請先「匯出備份」或列印。",
};

export function TaskScheduler({ appUrl }: { appUrl: string | null }) {
  const { view, dispatch } = useScheduler();
  const [message, setMessage] = useState("");
  // 列印, 新增任務 and the backup buttons need the page's scripts: disabled until they run, explained without them.
  const scripted = useScripted();
  const [search, setSearch] = useSearchParams();
  const [address] = useState(() => readTemplateAddress(search));
  const schedule = view.schedule ?? addressSchedule(address.tasks);
  const table = activeTable(schedule) ?? schedule.tables[0]!;

  // The address's tasks (a form sent before the scripts ran) join the table saved in this browser once it is
  // read; the address is then cleared, so a reload does not add them again.
  useEffect(() => {
    if (!address.tasks.length) return;
    dispatch({
      type: "add-missing-tasks",
      tasks: address.tasks.map((task) => ({ ...task, id: newId() })),
    });
    setSearch({}, { replace: true, preventScrollReset: true });
    // Once, at the first render in the browser.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Messages stay long enough to read, then clear so the next one is announced too.
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(""), 5000);
    return () => clearTimeout(timer);
  }, [message]);

  const addTasks = (drafts: TaskDraft[], fromTemplate = false) => {
    const tasks = drafts.map((draft) => ({ ...draft, id: newId() }));
    dispatch(fromTemplate ? { type: "add-missing-tasks", tasks } : { type: "add-tasks", tasks });
    setMessage(drafts.length === 1 ? `已加入「${drafts[0]?.name}」。` : `已加入 ${drafts.length} 項任務。`);
  };

  const startNewWeek = () => {
    if (!window.confirm("開始新的一週會清掉這張表這週的勾選，任務會留著。要開始新的一週嗎？")) return;
    dispatch({ type: "new-week", today: new Date() });
    setMessage("新的一週開始了！任務都還在，勾選已清空。");
  };

  const removeTable = () => {
    if (!window.confirm(`確定要刪除「${tableTitle(table)}」嗎？刪除後無法復原。`)) return;
    dispatch({ type: "remove-table", id: table.id, today: new Date() });
    setMessage(`已刪除「${tableTitle(table)}」。`);
  };

  return (
    <main className="page scheduler-page">
      <div className="scheduler-intro no-print">
        <h1>免費任務表</h1>
        <p>
          幫孩子把每天要做的事排成一張表：挑好任務、完成就打勾、一週結束數數得到幾顆星星。可以直接在手機上勾，也可以印出來貼在冰箱上。
        </p>
        <p className="scheduler-privacy">不用註冊。任務表只存在這台裝置的瀏覽器裡，不會傳到我們的伺服器。</p>
        <noscript>
          <p className="scheduler-notice">
            這個瀏覽器沒有開啟
            JavaScript：你還是可以從下面的範本挑任務排出一張表，再用瀏覽器的列印功能印出來；但打勾、填孩子的名字、自己新增或調整任務、多張表、儲存與備份都需要開啟
            JavaScript。
          </p>
        </noscript>
      </div>

      {view.problem && (
        <p className="scheduler-notice no-print" role="alert">
          {problemText[view.problem]}
        </p>
      )}

      <TableSwitcher
        schedule={schedule}
        onSelect={(id) => dispatch({ type: "select-table", id })}
        onAdd={() => dispatch({ type: "add-table", id: newId(), today: new Date() })}
      />

      <section className="scheduler-sheet" aria-label="任務表" aria-busy={!view.schedule}>
        <div className="scheduler-sheet__controls no-print">
          <div className="scheduler-field">
            <label htmlFor="child-name">孩子的名字</label>
            <input
              id="child-name"
              className="scheduler-input"
              value={table.childName}
              maxLength={childNameMaxLength}
              placeholder="例如：小明"
              onChange={(event) => dispatch({ type: "rename-child", name: event.target.value })}
            />
          </div>
          <div className="scheduler-actions">
            <button type="button" className="button button--primary" onClick={() => window.print()} disabled={!scripted}>
              列印
            </button>
            <button type="button" className="button" onClick={startNewWeek} disabled={!scripted}>
              開始新的一週
            </button>
            <button type="button" className="button button--danger" onClick={removeTable} disabled={!scripted}>
              刪除這張表
            </button>
          </div>
          <noscript>
            <p>沒有 JavaScript 時這些按鈕不能用：請用瀏覽器選單的「列印」印出這張表。</p>
          </noscript>
        </div>
        <TickTable table={table} onToggle={(taskId, day) => dispatch({ type: "toggle-tick", taskId, day })} />
      </section>

      <section className="scheduler-section no-print" aria-labelledby="templates-heading">
        <h2 id="templates-heading">從範本快速加入</h2>
        <p>依孩子的年齡挑幾項開始，加入後都可以再修改。</p>
        <TemplatePicker
          initialAgeId={address.ageId}
          existingNames={table.tasks.map((task) => task.name)}
          roomLeft={maxTasksPerTable - table.tasks.length}
          onAdd={(drafts) => addTasks(drafts, true)}
        />
      </section>

      <section className="scheduler-section no-print" aria-labelledby="add-task-heading">
        <h2 id="add-task-heading">自己新增任務</h2>
        {!canAddTask(table) && <p>一張表最多 {maxTasksPerTable} 項任務，這樣印出來的格子才夠大。</p>}
        <TaskForm disabled={!scripted || !canAddTask(table)} onSubmit={(draft) => addTasks([draft])} />
        <noscript>
          <p>自己新增任務需要開啟 JavaScript；沒有 JavaScript 時，請從上面的範本挑任務。</p>
        </noscript>
      </section>

      {table.tasks.length > 0 && (
        <section className="scheduler-section no-print" aria-labelledby="task-order-heading">
          <h2 id="task-order-heading">調整任務</h2>
          <p>拖曳任務或用 ↑ ↓ 按鈕調整順序，也可以編輯或刪除。</p>
          <TaskList
            tasks={table.tasks}
            onMove={(id, toIndex) => dispatch({ type: "move-task", id, toIndex })}
            onUpdate={(id, draft) => dispatch({ type: "update-task", id, draft })}
            onRemove={(id) => dispatch({ type: "remove-task", id })}
            announce={setMessage}
          />
        </section>
      )}

      <section className="scheduler-section no-print" aria-labelledby="backup-heading">
        <h2 id="backup-heading">備份與換手機</h2>
        <p>把所有任務表存成一個檔案，換手機或換瀏覽器時再匯入就能接著用。清除瀏覽器資料時任務表也會一起刪掉，記得偶爾備份一下。</p>
        <BackupControls
          schedule={view.schedule}
          onImported={(imported) => dispatch({ type: "imported", schedule: imported })}
          announce={setMessage}
        />
        <noscript>
          <p>匯出與匯入備份需要開啟 JavaScript。</p>
        </noscript>
      </section>

      <AppInvite appUrl={appUrl} />

      <p className="scheduler-toast no-print" role="status">
        {message}
      </p>
    </main>
  );
}
