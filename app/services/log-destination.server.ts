import pino from "pino";

/**
 * Standard output for the process's logger, written once per turn of the event loop. pino's own destination
 * writes each line with its own system call: one per request, which cost a prerendered page's answer 18 of its
 * 48 µs of CPU (docs/performance.md). Here the lines of one turn (every request the turn answered) go out in one
 * write at its end, in order and whole, and still within the same turn as the answer: nothing waits on a timer,
 * and at exit (a fatal error included) whatever is pending is written before the process ends. Only a kill -9
 * in the middle of a turn loses that turn's lines.
 */
export function batchedStdout(): pino.DestinationStream {
  const stdout = pino.destination({ dest: 1, sync: true });
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const text = pending.join("");
    pending = [];
    stdout.write(text);
  };
  process.on("exit", flush);
  return {
    write(line: string) {
      // The first line of a turn schedules the turn's one write.
      if (pending.push(line) === 1) setImmediate(flush);
    },
  };
}
