// The progress of an import command (accounts, files): a bar that redraws in place on a terminal, a plain line
// every 5 % (and at the end) otherwise, each with the rate and the time left.

/** `unit` names what is counted (個帳號, 個檔案); the returned function takes (done, total). */
export function importProgress(unit) {
  const started = Date.now();
  let lastPercent = -1;
  return function progress(done, total) {
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const left = rate > 0 ? Math.round((total - done) / rate) : 0;
    const percent = total ? Math.floor((done / total) * 100) : 100;
    // Before the first batch there is no rate to speak of.
    const pace = done > 0 && rate >= 1 ? `${rate.toFixed(0)} 個/秒，剩約 ${left} 秒` : "速度計算中";
    if (process.stdout.isTTY) {
      const width = 30;
      const filled = Math.round((percent / 100) * width);
      process.stdout.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} ${unit}  ${pace} `);
      if (done === total) process.stdout.write("\n");
    } else if (percent >= lastPercent + 5 || done === total) {
      lastPercent = percent;
      console.log(`${done}/${total} ${unit}（${percent}%），${pace}`);
    }
  };
}
