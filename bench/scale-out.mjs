/**
 * What the scale-out benchmarks share: nginx started from a config written for the run, and a fresh PostgreSQL
 * database with its own Redis key prefix, dropped and cleared afterwards, so a bench never reads another's data.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { Redis } from "ioredis";

export const postgresUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const nginx = process.env.NGINX_PATH ?? "/usr/sbin/nginx";

export const hasNginx = () => fs.existsSync(nginx);

/**
 * nginx with `httpBlock` (the lines inside `http { }` after the temp paths), ready once `readyUrl` answers 2xx.
 * Returns the function that stops it.
 */
export async function startNginx({ httpBlock, readyUrl, workerConnections = 1024 }) {
  if (!hasNginx()) throw new Error(`nginx is not at ${nginx} (apt-get install -y nginx-light)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-nginx-"));
  fs.writeFileSync(path.join(dir, "nginx.conf"), `
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections ${workerConnections}; }
http {
  access_log off;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
${httpBlock}
}`);
  const child = spawn(nginx, ["-c", path.join(dir, "nginx.conf"), "-p", dir], { stdio: "ignore" });
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if ((await fetch(readyUrl).catch(() => null))?.ok) {
      return async () => {
        child.kill("SIGQUIT");
        await new Promise((resolve) => child.once("exit", resolve));
        fs.rmSync(dir, { recursive: true, force: true });
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`nginx did not start (see ${dir}/error.log)`);
}

/**
 * The deploy recipe's own nginx (deploy/start-proxy.sh: TLS on localhost, the answers the site lets it keep) in
 * front of `upstreamPorts`, ready once it answers `/healthz` over https. Returns its run folder (its `cert.pem` and
 * `key.pem` serve another nginx too) and the function that stops it.
 */
export async function startRecipeProxy({ upstreamPorts, tlsPort }) {
  const run = fs.mkdtempSync(path.join(os.tmpdir(), "bench-proxy-"));
  const script = new URL("../deploy/start-proxy.sh", import.meta.url).pathname;
  const child = spawn("bash", [script, run], {
    env: { ...process.env, UPSTREAM_PORTS: upstreamPorts.join(" "), TLS_PORT: String(tlsPort), NGINX: nginx },
    stdio: "ignore",
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? child.once("exit", resolve) : resolve()));
    fs.rmSync(run, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await answersOverTls(`https://localhost:${tlsPort}/healthz`)) return { run, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error("the deploy recipe's nginx did not start");
}

/** Whether an https address answers 2xx (its self-signed certificate accepted). */
const answersOverTls = (url) =>
  new Promise((resolve) => {
    https.get(url, { rejectUnauthorized: false }, (response) => {
      response.resume();
      resolve(response.statusCode >= 200 && response.statusCode < 300);
    }).on("error", () => resolve(false));
  });

/** A fresh database and Redis prefix named after `label`: `{ id, databaseUrl, redisPrefix, drop() }`. */
export async function freshScaleOut(label) {
  const id = randomBytes(5).toString("hex");
  const database = `bench_${label}_${id}`;
  const redisPrefix = `bench-${label}-${id}:`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const databaseUrl = new URL(postgresUrl);
  databaseUrl.pathname = `/${database}`;
  return {
    id,
    databaseUrl: databaseUrl.toString(),
    redisPrefix,
    async drop() {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${redisPrefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    },
  };
}
