import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const destination = fileURLToPath(new URL("./log-destination.server.ts", import.meta.url));

/** Runs `body` in a Node of its own with `out`, the batched standard output, and returns what it printed. */
function run(body: string) {
  const script = `import { batchedStdout } from ${JSON.stringify(destination)};\nconst out = batchedStdout();\n${body}`;
  return spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 });
}

describe("the logger's standard output, one write per turn of the event loop", () => {
  it("writes every line of a turn, whole and in order, at the turn's end", () => {
    const { stdout, status } = run(`for (let i = 0; i < 1000; i += 1) out.write(JSON.stringify({ i }) + "\\n");
setImmediate(() => process.stderr.write("turn ended\\n"));`);
    expect(status).toBe(0);
    expect(stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line).i)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });

  it("writes what is pending when the process exits in the same turn, a fatal error included", () => {
    const exited = run(`out.write("before exit\\n"); process.exit(3);`);
    expect({ status: exited.status, stdout: exited.stdout }).toEqual({ status: 3, stdout: "before exit\n" });
    const crashed = run(`out.write('{"level":60,"msg":"fatal"}\\n'); throw new Error("boom");`);
    expect(crashed.status).toBe(1);
    expect(crashed.stdout).toBe('{"level":60,"msg":"fatal"}\n');
  });

  it("keeps the lines of one turn out of standard output until the turn ends", () => {
    // A synchronous write in the same turn lands first: the logger's lines wait for the turn's end, not a timer.
    const { stdout } = run(`out.write("logged\\n"); process.stdout.write("direct\\n"); setImmediate(() => {});`);
    expect(stdout).toBe("direct\nlogged\n");
  });
});
