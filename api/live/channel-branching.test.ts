/**
 * Only the adapters know the live chat channels apart (issue 13): what Telegram, Messenger,
 * Instagram or Business Messages do differently — verify, connect, disconnect, send, typing,
 * seen — is each one's adapter (./adapters), picked from the registry by the channel. Server code
 * anywhere else that compares a channel with one of their names (`channel === "telegram"`,
 * `case "messenger":`) fails here; a table keyed by channel is not a branch and passes. The
 * screens (remix/app) may still show each channel's own form.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CONNECTABLE } from "./channel-schemas";

const root = resolve(__dirname, "..", "..");
const DIRS = ["api", "realtime"];
/** The one place allowed to tell the channels apart. */
const ADAPTERS = "api/live/adapters.ts";

const names = CONNECTABLE.join("|");
const quoted = `["'\`](?:${names})["'\`]`;
const BRANCH = new RegExp(`(?:[!=]==?\\s*${quoted})|(?:${quoted}\\s*[!=]==?)|(?:\\bcase\\s+${quoted})`);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** Every line outside the adapters that branches on a connectable channel's name, as "file:line: text". */
function branches(): string[] {
  const found: string[] = [];
  for (const file of DIRS.flatMap((d) => sources(join(root, d)))) {
    const name = relative(root, file);
    if (name === ADAPTERS) continue;
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (BRANCH.test(line)) found.push(`${name}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

describe("live chat channels", () => {
  it("the pattern finds the branches it is meant to find, and not a table or a call naming a channel", () => {
    for (const line of [`if (channel === "telegram") {`, `data.channel !== 'instagram'`, `"google_business" == c`, "case `messenger`:"]) expect(line).toMatch(BRANCH);
    for (const line of [`telegram: telegramAdapter,`, `connectionById("telegram", params.id)`, `channel === "webchat"`]) expect(line).not.toMatch(BRANCH);
  });

  it("no server code outside api/live/adapters.ts branches on a channel's name", () => {
    expect(branches()).toEqual([]);
  });
});
