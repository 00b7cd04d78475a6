// What an app's backend can expect when it checks our access tokens offline: `jose` verifying an ES256 JWT like
// the provider's (the key a JWKS answer would hold, the claims of an access token) in a loop, one worker thread
// per core. The reference in the same run is node:crypto's bare ECDSA P-256 verification of the same signature
// (the floor). Besides the wall-clock rate, each thread's own CPU time gives verifications per CPU-second, which a
// shared machine's load does not bend much: × cores, that is the capacity of an idle machine of this kind.
//   node bench/jwt-verify.mjs          (BENCH_SECONDS)
import crypto from "node:crypto";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { SignJWT, createLocalJWKSet, jwtVerify } from "jose";
import { row, runAlone, seconds } from "./lib.mjs";

const issuer = "https://example.tw/oidc";
const audience = "https://api.example.tw";

/** Calls `work` in batches for `duration` seconds (after one unmeasured second): per second and per CPU-second. */
async function rate(work, duration) {
  const until = async (ms) => {
    let count = 0;
    const started = performance.now();
    // The whole process's CPU time (WebCrypto verifies on libuv's pool): each thread's count over it, summed over
    // threads running the same seconds, is verifications per CPU-second.
    const cpuBefore = process.cpuUsage();
    while (performance.now() - started < ms) {
      for (let index = 0; index < 200; index += 1) await work();
      count += 200;
    }
    const cpu = process.cpuUsage(cpuBefore);
    return { perSecond: count / ((performance.now() - started) / 1000), perCpuSecond: count / ((cpu.user + cpu.system) / 1e6) };
  };
  await until(1000);
  return until(duration * 1000);
}

/** One thread's loop: the token and the public key come from the main thread. */
async function verifyLoop({ token, jwk, kind, duration }) {
  const jwks = createLocalJWKSet({ keys: [jwk] });
  const publicKey = crypto.createPublicKey({ key: jwk, format: "jwk" });
  const [header, payload, signature] = token.split(".");
  const signed = Buffer.from(`${header}.${payload}`);
  const rawSignature = Buffer.from(signature, "base64url");
  const bare = async () => {
    if (!crypto.verify("sha256", signed, { key: publicKey, dsaEncoding: "ieee-p1363" }, rawSignature)) throw new Error("bad signature");
  };
  // An app's backend may keep what it verified until the token expires (an app sends one token for up to an hour).
  const verified = new Map();
  const cached = async () => {
    const known = verified.get(token);
    if (known && known.exp * 1000 > Date.now()) return known;
    const { payload: claims } = await jwtVerify(token, jwks, options);
    verified.set(token, claims);
    return claims;
  };
  const work = { jose: () => jwtVerify(token, jwks, options), bare, cached }[kind];
  return rate(work, duration);
}

const options = { issuer, audience, algorithms: ["ES256"], typ: "at+jwt" };

/** Every core at once, one thread each; rates summed. */
async function onEveryCore(task) {
  const results = await Promise.all(Array.from({ length: os.availableParallelism() }, () => new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: task });
    worker.once("message", resolve);
    worker.once("error", reject);
  })));
  return { perSecond: results.reduce((sum, r) => sum + r.perSecond, 0), perCpuSecond: results.reduce((sum, r) => sum + r.perCpuSecond, 0) };
}

export async function run() {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  const kid = "bench-key";
  // The JWKS an app fetches once (GET /oidc/jwks) and keeps.
  const jwks = createLocalJWKSet({ keys: [{ ...publicKey.export({ format: "jwk" }), kid, alg: "ES256", use: "sig" }] });
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ scope: "openid profile email offline_access", client_id: "task-hero-app" })
    .setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" })
    .setIssuer(issuer).setAudience(audience).setSubject("QwjZKcl0MluyinJeuaHjSiOiucZylxoD")
    .setIssuedAt(now).setExpirationTime(now + 3600).setJti(crypto.randomUUID())
    .sign(privateKey);

  const check = await jwtVerify(token, jwks, options);
  if (check.payload.sub !== "QwjZKcl0MluyinJeuaHjSiOiucZylxoD") throw new Error("the token did not verify");

  const jwk = { ...publicKey.export({ format: "jwk" }), kid, alg: "ES256", use: "sig" };
  const duration = Math.max(2, Math.min(seconds, 5));
  const joseRate = await onEveryCore({ token, jwk, kind: "jose", duration });
  const bareRate = await onEveryCore({ token, jwk, kind: "bare", duration });
  const cachedRate = await onEveryCore({ token, jwk, kind: "cached", duration });
  const cores = os.availableParallelism();
  const capacity = joseRate.perCpuSecond * cores;
  return [
    row({ figure: `ES256 access tokens verified offline by jose, per second (${cores} threads)`, value: joseRate.perSecond, unit: "",
      reference: { label: "bare node:crypto verify", value: bareRate.perSecond }, ratio: joseRate.perSecond / bareRate.perSecond, target: "(reported: the machine's load bends it)", met: true }),
    row({ figure: "the same, per CPU-second of one core", value: joseRate.perCpuSecond, unit: "",
      reference: { label: "bare node:crypto verify", value: bareRate.perCpuSecond }, ratio: joseRate.perCpuSecond / bareRate.perCpuSecond, target: "(reported)", met: true }),
    row({ figure: `jose verifications per second, ${cores} idle cores (per CPU-second × cores)`, value: capacity, unit: "",
      reference: { label: "bare node:crypto verify", value: bareRate.perCpuSecond * cores }, ratio: capacity / (bareRate.perCpuSecond * cores), target: "≥ 20,000/s", met: capacity >= 20_000 }),
    row({ figure: `jose with the verified token kept until it expires, per second (${cores} threads)`, value: cachedRate.perSecond, unit: "",
      reference: { label: "jose every time", value: joseRate.perSecond }, ratio: cachedRate.perSecond / joseRate.perSecond, target: "≥ 20,000/s", met: cachedRate.perSecond >= 20_000 }),
  ];
}

if (!isMainThread) parentPort.postMessage(await verifyLoop(workerData));
else await runAlone(import.meta, run);
