#!/usr/bin/env node
/**
 * Server-side cost of the screens (ADR 073): the demo owner's document requests of a few screens,
 * and the lazy route discovery request a screen makes for the links it shows (`/__manifest?p=…`,
 * captured from a real page load in Chromium), each asked BENCH_REQUESTS times one after another.
 * Prints the median and p95 latency and the web process's CPU per request (from /proc). Own
 * database (mensageria_bench_web_pages); api, realtime and web processes in production mode.
 * Run: `node bench/web-pages.mjs` (BENCH_REQUESTS, default 40).
 */
import { existsSync, readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { webStack } from "./lib.mjs";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const SCREENS = ["/", "/sms/send", "/sms/history", "/contacts", "/live", "/mail/history", "/settings"];
const OWNER = { email: "owner@demo.example", password: "Demo!Mensa#2026" };

const { base, web } = await webStack("mensageria_bench_web_pages", "bench:wp:");

/** CPU seconds the web process has used so far (utime + stime of /proc/<pid>/stat, in clock ticks of 1/100 s). */
function webCpu() {
  const fields = readFileSync(`/proc/${web.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const executablePath = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");
const browser = await chromium.launch({ executablePath, args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
const context = await browser.newContext({ baseURL: base, locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
const page = await context.newPage();
await page.goto("/login");
await page.fill('input[name="email"]', OWNER.email);
await page.fill('input[name="password"]', OWNER.password);
await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/login")), page.click('button[type="submit"]')]);
// The discovery request a real page makes for the links it shows (the sidebar's among them).
const manifests = [];
page.on("request", (r) => {
  if (new URL(r.url()).pathname === "/__manifest") manifests.push(r.url());
});
await page.goto("/sms/history", { waitUntil: "networkidle" });
const manifest = manifests.sort((a, b) => b.length - a.length)[0];

async function measure(url) {
  const times = [];
  for (let i = 0; i < 3; i++) await (await context.request.get(url)).body();
  const cpu0 = webCpu();
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    const res = await context.request.get(url, { maxRedirects: 0 });
    await res.body();
    if (res.status() >= 400) throw new Error(`${url} answered ${res.status()}`);
    times.push(performance.now() - t0);
  }
  const cpu = ((webCpu() - cpu0) / REQUESTS) * 1000;
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95)], cpu };
}

console.log(`${REQUESTS} requests each, one at a time, signed in as the demo owner; web process CPU per request from /proc`);
console.log("| request | median | p95 | web CPU / request |");
console.log("|---|---:|---:|---:|");
const rows = [...SCREENS.map((s) => [s, s]), ...(manifest ? [[`/__manifest (${new URL(manifest).searchParams.getAll("p").length} paths, from /sms/history)`, manifest]] : [])];
for (const [label, url] of rows) {
  const m = await measure(url);
  console.log(`| ${label} | ${m.median.toFixed(1)} ms | ${m.p95.toFixed(1)} ms | ${m.cpu.toFixed(1)} ms |`);
}
await browser.close();
process.exit(0);
