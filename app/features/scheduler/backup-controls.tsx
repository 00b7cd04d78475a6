import { useRef } from "react";
import type { SchedulerState } from "./model";

interface BackupControlsProps {
  schedule: SchedulerState | null;
  onImported: (schedule: SchedulerState) => void;
  announce: (message: string) => void;
}

/** Export to and import from a JSON file: the way to move tables to another phone, or keep a copy. */
export function BackupControls({ schedule, onImported, announce }: BackupControlsProps) {
  const fileInput = useRef<HTMLInputElement>(null);

  // The backup code loads on first use; the page's saved-data reading has usually fetched it already.
  async function exportFile() {
    if (!schedule) return;
    const { backupFileName, backupText } = await import("./backup");
    const url = URL.createObjectURL(new Blob([backupText(schedule)], { type: "application/json" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = backupFileName(new Date());
    link.click();
    // The download has started; the URL is no longer needed.
    setTimeout(() => URL.revokeObjectURL(url), 0);
    announce("已下載備份檔。");
  }

  async function importFile(file: File | undefined) {
    if (!file || !schedule) return;
    const [text, { importBackup }] = await Promise.all([file.text().catch(() => ""), import("./backup")]);
    const result = importBackup(schedule, text);
    if (result.ok) {
      onImported(result.state);
      announce(`已匯入 ${result.imported} 張任務表。`);
    } else if (result.reason === "too-many") {
      announce("匯入後會超過 10 張表，請先刪掉幾張用不到的表再試一次。");
    } else {
      announce("這個檔案讀不出任務表。請選擇從這個頁面「匯出備份」得到的 .json 檔。");
    }
  }

  return (
    <div className="scheduler-actions">
      <button type="button" className="button" onClick={() => void exportFile()} disabled={!schedule}>
        匯出備份
      </button>
      <button type="button" className="button" onClick={() => fileInput.current?.click()} disabled={!schedule}>
        匯入備份
      </button>
      <input
        ref={fileInput}
        type="file"
        accept="application/json,.json"
        hidden
        aria-label="選擇備份檔"
        onChange={(event) => {
          void importFile(event.target.files?.[0]);
          event.target.value = ""; // choosing the same file again still imports it
        }}
      />
    </div>
  );
}
