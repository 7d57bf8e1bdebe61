#!/usr/bin/env node
/**
 * Page weight under a 3G profile (issue 19, ADR 049): for /login, /sms/send, /live and the widget
 * page (/live/simulator), a first visit with an empty cache in Debian's Chromium, the network
 * throttled through CDP (Network.emulateNetworkConditions: 1.6 Mbps down, 750 Kbps up, 150 ms
 * RTT; CPU slowed BENCH_CPU_SLOWDOWN times, default 1 = off). Prints the bytes transferred (as
 * encoded on the wire), the requests, the JavaScript bytes and the Largest Contentful Paint.
 * Production mode, its own database (mensageria_bench_page_weight); api, realtime and web processes.
 * Targets: LCP < 2.5 s on /login and /sms/send.
 */
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import { webStack } from "./lib.mjs";

const PAGES = [
  { path: "/login", signedIn: false },
  { path: "/sms/send", signedIn: true },
  { path: "/live", signedIn: true },
  { path: "/live/simulator", signedIn: true },
];
const PROFILE = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
const CPU = Number(process.env.BENCH_CPU_SLOWDOWN ?? 1);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const OWNER = { email: "owner@demo.example", password: "Demo!Mensa#2026" };

const { base } = await webStack("mensageria_bench_page_weight", "bench:pw:");

const executablePath = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");
const browser = await chromium.launch({
  executablePath,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
  ],
});

/** One cold visit: returns bytes on the wire, requests, JS bytes and LCP (ms). */
async function visit(path, signedIn, identity = false) {
  const context = await browser.newContext({
    // identity: the same visit with compression refused, to show what it saves.
    extraHTTPHeaders: identity ? { "Accept-Encoding": "identity" } : {},
    baseURL: base,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
    viewport: { width: 412, height: 823 },
  });
  const page = await context.newPage();
  if (signedIn) {
    await page.goto("/login");
    await page.fill('input[name="email"]', OWNER.email);
    await page.fill('input[name="password"]', OWNER.password);
    await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/login")), page.click('button[type="submit"]')]);
  }
  await page.addInitScript(() => {
    window.__lcp = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__lcp = e.renderTime || e.loadTime || e.startTime;
    }).observe({ type: "largest-contentful-paint", buffered: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.clearBrowserCache");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", PROFILE);
  if (CPU > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
  const types = new Map();
  let bytes = 0;
  let js = 0;
  let requests = 0;
  cdp.on("Network.responseReceived", (e) => types.set(e.requestId, e.type));
  cdp.on("Network.loadingFinished", (e) => {
    bytes += e.encodedDataLength;
    requests += 1;
    if (types.get(e.requestId) === "Script") js += e.encodedDataLength;
  });
  await page.goto(path, { waitUntil: "load" });
  await page.waitForLoadState("networkidle");
  // LCP is final at the first input; reading it after network idle takes the last candidate.
  const lcp = await page.evaluate(() => window.__lcp);
  await context.close();
  return { bytes, js, requests, lcp };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`3G profile: 1.6 Mbps down, 750 Kbps up, 150 ms RTT; CPU slowdown ${CPU}x; cold cache; ${RUNS} runs, median; ${executablePath}`);
console.log("| page | transferred | of which JS | requests | LCP | without compression (1 run): transferred, LCP |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const { path, signedIn } of PAGES) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await visit(path, signedIn));
  const plain = await visit(path, signedIn, true);
  console.log(
    `| ${path} | ${kb(median(runs.map((r) => r.bytes)))} | ${kb(median(runs.map((r) => r.js)))} | ${median(runs.map((r) => r.requests))} | ${(median(runs.map((r) => r.lcp)) / 1000).toFixed(2)} s | ${kb(plain.bytes)}, ${(plain.lcp / 1000).toFixed(2)} s |`,
  );
}
await browser.close();
process.exit(0);
