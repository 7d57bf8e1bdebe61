#!/usr/bin/env node
/**
 * The 1,000,000-row CSV import, end to end, on the real api and worker processes: generate a
 * realistic Brazilian contact list (streamed to a temp file; ~5% repeated numbers, ~1% invalid
 * ones), register a company through the API, upload the file (multipart, streamed), start it
 * with the suggested mapping into a new group, poll until it completes, then import the same file
 * again (every row merges into an existing contact), and print the figures of each pass: seconds,
 * rows/s, the peak memory (RSS sampled every 200 ms, and the kernel's high-water mark) of the
 * worker and api processes, and CPU seconds. Run: `node bench/import.mjs` (PostgreSQL and Redis
 * as for npm start). BENCH_ROWS changes the size, BENCH_PASSES=1 skips the second import,
 * BENCH_GROUP=0 imports without a group. Everything runs on loopback and stops by itself.
 */
import { openAsBlob, readFileSync, statSync, rmSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { writeContactsCsv } from "./contacts-csv.mjs";
import { benchPlatform, onExit, sleep, startBun, up } from "./lib.mjs";

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const DB = "mensageria_bench_import";

const work = mkdtempSync(join(tmpdir(), "bench-import-"));
onExit(() => rmSync(work, { recursive: true, force: true }));

/** Resident memory of a process: VmRSS now and VmHWM (the peak the kernel saw), in MB. */
function memory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

/** User + system CPU seconds a process has used so far. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

// A fresh database (unless DATABASE_URL names one), migrated and seeded.
const { databaseUrl, apiPort, env } = await benchPlatform(DB, `bench-import-${Date.now()}:`, { UPLOAD_DIR: join(work, "uploads") }, { fresh: true });

console.log(`Generating ${rows.toLocaleString("en-US")} rows…`);
const csv = join(work, "contatos.csv");
const written = await writeContactsCsv(csv, { rows });
const size = statSync(csv).size;

const api = startBun("api/server.ts", env);
const worker = startBun("api/worker.ts", env);
const base = `http://127.0.0.1:${apiPort}/api`;
await up(`${base}/health`);
await sleep(1000); // the worker's consumer groups

// A new company, registered and verified through the API (the verification link is read from the outbox table).
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const email = `bench.${Date.now().toString(36)}@bench.example`;
const password = "Rv8#Tq2!Lm5@Wx";
const json = (r) => r.json();
const post = (path, body, token) =>
  fetch(`${base}${path}`, { method: "POST", headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
const reg = await post("/auth/register", {
  firstName: "Bench",
  lastName: "Import",
  email,
  password,
  confirmPassword: password,
  companyName: "Bench Importações Ltda",
  acceptTerms: true,
});
if (!reg.ok) throw new Error(`register: ${reg.status} ${await reg.text()}`);
const { rows: mails } = await db.query("SELECT text_body FROM outbound_emails WHERE to_address = $1 ORDER BY created_at DESC LIMIT 1", [email]);
const token = /\/email-verify\/([^\s]+)/.exec(mails[0].text_body)[1];
await post(`/auth/verify-email/${token}`, {});
const { token: jwt } = await post("/auth/login", { email, password }).then(json);
const auth = { Authorization: `Bearer ${jwt}` };

const withGroup = process.env.BENCH_GROUP !== "0";
const passes = Math.max(1, Number(process.env.BENCH_PASSES ?? 2));
const f = (x) => Math.round(x).toLocaleString("en-US");

/** One import of the file, measured: upload, start with the suggested mapping, poll to the end. */
async function importOnce(pass) {
  // Memory: both processes every 200 ms. CPU: the worker's, and that of this database's PostgreSQL backends.
  const peak = { api: 0, worker: 0 };
  const backendCpu = new Map();
  let backends = [];
  const pollBackends = setInterval(() => {
    db.query("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [DB]).then(
      (r) => {
        backends = r.rows.map((x) => x.pid);
      },
      () => {},
    );
  }, 500);
  const sampler = setInterval(() => {
    peak.api = Math.max(peak.api, memory(api.pid).rss);
    peak.worker = Math.max(peak.worker, memory(worker.pid).rss);
    for (const pid of backends) backendCpu.set(pid, Math.max(backendCpu.get(pid) ?? 0, cpuSeconds(pid)));
  }, 200);
  const cpu0 = { api: cpuSeconds(api.pid), worker: cpuSeconds(worker.pid) };
  const idle = { api: memory(api.pid).rss, worker: memory(worker.pid).rss };

  console.log(`Pass ${pass}: uploading ${(size / 1e6).toFixed(1)} MB…`);
  const t0 = performance.now();
  const form = new FormData();
  form.append("files", await openAsBlob(csv), "contatos.csv");
  const up = await fetch(`${base}/contacts/imports`, { method: "POST", headers: auth, body: form });
  const created = await up.json();
  if (!up.ok) throw new Error(`upload: ${up.status} ${JSON.stringify(created)}`);
  const t1 = performance.now();
  const started = await post(`/contacts/imports/${created.id}/start`, { mapping: created.suggestedMapping, ...(withGroup ? { new_group_name: "Bench" } : {}) }, jwt);
  if (started.status !== 200) throw new Error(`start: ${started.status} ${await started.text()}`);
  let view;
  let lastLine = 0;
  for (;;) {
    view = await fetch(`${base}/contacts/imports/${created.id}`, { headers: auth }).then(json);
    if (view.status === "completed" || view.status === "failed") break;
    if (performance.now() - lastLine > 5000) {
      lastLine = performance.now();
      console.log(`  ${view.status} ${view.percent}% — ${f(view.processedRows)} read, ${f(view.insertedRows + view.mergedRows)} merged, ${f(view.rowsPerSecond)} rows/s`);
    }
    await sleep(250);
  }
  const t2 = performance.now();
  clearInterval(sampler);
  clearInterval(pollBackends);
  if (view.status !== "completed") throw new Error(`import failed: ${view.failure} ${JSON.stringify(view.failureParams)}`);
  const {
    rows: [{ n }],
  } = await db.query(
    "SELECT count(*)::int AS n FROM contacts c JOIN contact_groups g ON g.account_id = c.account_id AND g.name = 'Bench' JOIN contact_group_members m ON m.group_id = g.id AND m.contact_id = c.id",
  );
  return {
    view,
    members: n,
    idle,
    peak,
    hwm: { api: memory(api.pid).hwm, worker: memory(worker.pid).hwm },
    cpu: { api: cpuSeconds(api.pid) - cpu0.api, worker: cpuSeconds(worker.pid) - cpu0.worker, pg: [...backendCpu.values()].reduce((a, b) => a + b, 0) },
    upload: (t1 - t0) / 1000,
    processing: (Date.parse(view.finishedAt) - Date.parse(view.startedAt)) / 1000,
    total: (t2 - t0) / 1000,
  };
}

const results = [];
for (let pass = 1; pass <= passes; pass++) results.push(await importOnce(pass));
await db.end();

const mb = (x) => `${Math.round(x)} MB`;
const row = (label, fn) => console.log(`| ${label} | ${results.map(fn).join(" | ")} |`);
console.log(
  `\n${new Date().toISOString()} — ${f(rows)} rows, ${(size / 1e6).toFixed(1)} MB (${f(written.duplicates)} repeated numbers, ${f(written.invalid)} invalid), ${withGroup ? "into a new group" : "no group"}, load average before the end ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
);
console.log(`| figure | ${results.map((_, i) => (i === 0 ? "1st import (new contacts)" : "same file again (every row merges)")).join(" | ")} |`);
console.log(`|---|${results.map(() => "---:").join("|")}|`);
row("upload (streamed to disk, rows counted)", (r) => `${r.upload.toFixed(1)} s`);
row("processing (parse + COPY + merge, worker)", (r) => `${r.processing.toFixed(1)} s`);
row("**end to end** (upload + start + processing, as polled)", (r) => `**${r.total.toFixed(1)} s**`);
row("rows/s end to end / processing", (r) => `${f(rows / r.total)} / ${f(rows / r.processing)}`);
row("inserted / merged / errors", (r) => `${f(r.view.insertedRows)} / ${f(r.view.mergedRows)} / ${f(r.view.errorCount)}`);
row("contacts in the group", (r) => f(r.members));
row("**worker peak RSS** (idle → 200 ms samples; VmHWM)", (r) => `${mb(r.idle.worker)} → **${mb(r.peak.worker)}**; ${mb(r.hwm.worker)}`);
row("**api peak RSS** (idle → 200 ms samples; VmHWM)", (r) => `${mb(r.idle.api)} → **${mb(r.peak.api)}**; ${mb(r.hwm.api)}`);
row("CPU seconds: worker / PostgreSQL backends / api", (r) => `${r.cpu.worker.toFixed(1)} / ${r.cpu.pg.toFixed(1)} / ${r.cpu.api.toFixed(1)}`);
process.exit(0);
