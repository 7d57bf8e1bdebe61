import { describe, expect, it } from "vitest";
import { FAILURE_STATUSES, MESSAGE_STATUSES, isFinal, nextStatus, type MessageStatus } from "./status";

const FORWARD: MessageStatus[] = ["pending", "scheduled", "queued", "sending", "sent", "delivered", "read"];

describe("nextStatus: the forward-only message status machine", () => {
  it("moves forward along pending < scheduled < queued < sending < sent < delivered < read, also skipping steps", () => {
    for (let i = 0; i < FORWARD.length; i++) {
      for (let j = i + 1; j < FORWARD.length; j++) {
        expect(nextStatus(FORWARD[i], FORWARD[j]), `${FORWARD[i]} -> ${FORWARD[j]}`).toEqual({ apply: true, status: FORWARD[j] });
      }
    }
  });

  it("never moves backwards", () => {
    for (let i = 0; i < FORWARD.length; i++) {
      for (let j = 0; j < i; j++) {
        expect(nextStatus(FORWARD[i], FORWARD[j]), `${FORWARD[i]} -> ${FORWARD[j]}`).toEqual({ apply: false, status: FORWARD[i] });
      }
    }
  });

  it("a repeated status changes nothing", () => {
    for (const s of MESSAGE_STATUSES) expect(nextStatus(s, s)).toEqual({ apply: false, status: s });
  });

  it("a late delivered never overwrites read", () => {
    expect(nextStatus("read", "delivered")).toEqual({ apply: false, status: "read" });
  });

  it("nothing changes once read", () => {
    for (const s of MESSAGE_STATUSES) expect(nextStatus("read", s)).toEqual({ apply: false, status: "read" });
  });

  it("failure states are reachable from every state before delivered", () => {
    for (const from of ["pending", "scheduled", "queued", "sending", "sent", "received"] as const) {
      for (const f of FAILURE_STATUSES) expect(nextStatus(from, f), `${from} -> ${f}`).toEqual({ apply: true, status: f });
    }
  });

  it("failed (or any failure) after delivered changes nothing", () => {
    for (const f of FAILURE_STATUSES) {
      expect(nextStatus("delivered", f)).toEqual({ apply: false, status: "delivered" });
      expect(nextStatus("read", f)).toEqual({ apply: false, status: "read" });
    }
  });

  it("failure states are terminal: nothing moves a failed message, not even delivered", () => {
    for (const f of FAILURE_STATUSES) {
      for (const s of MESSAGE_STATUSES) expect(nextStatus(f, s), `${f} -> ${s}`).toEqual({ apply: false, status: f });
    }
  });

  it("an inbound received message moves on to delivered and read, and an outbound sent one does not become received", () => {
    expect(nextStatus("pending", "received")).toEqual({ apply: true, status: "received" });
    expect(nextStatus("received", "delivered")).toEqual({ apply: true, status: "delivered" });
    expect(nextStatus("received", "read")).toEqual({ apply: true, status: "read" });
    expect(nextStatus("sent", "received")).toEqual({ apply: false, status: "sent" });
    expect(nextStatus("received", "sent")).toEqual({ apply: false, status: "received" });
  });

  it("final states are read, clicked and the failures", () => {
    expect(MESSAGE_STATUSES.filter(isFinal).sort()).toEqual(["blocked", "bounced", "clicked", "dropped", "failed", "optout", "read", "rejected", "unavailable"]);
  });

  it("e-mail (ADR 036): a deferral is passed by the retry that sends, a delayed report after sent moves nothing; opened then clicked; an open after a click changes nothing", () => {
    expect(nextStatus("sending", "deferred")).toEqual({ apply: true, status: "deferred" });
    expect(nextStatus("deferred", "sent")).toEqual({ apply: true, status: "sent" });
    expect(nextStatus("deferred", "bounced")).toEqual({ apply: true, status: "bounced" });
    expect(nextStatus("sent", "deferred")).toEqual({ apply: false, status: "sent" });
    expect(nextStatus("delivered", "opened")).toEqual({ apply: true, status: "opened" });
    expect(nextStatus("opened", "clicked")).toEqual({ apply: true, status: "clicked" });
    expect(nextStatus("delivered", "clicked")).toEqual({ apply: true, status: "clicked" });
    expect(nextStatus("clicked", "opened")).toEqual({ apply: false, status: "clicked" });
    expect(nextStatus("opened", "bounced")).toEqual({ apply: false, status: "opened" });
    expect(nextStatus("sent", "bounced")).toEqual({ apply: true, status: "bounced" });
  });

  it("applying receipts in any order ends on the same status as in order (delivered/read vs failed)", () => {
    const fold = (list: MessageStatus[]) => list.reduce((s, x) => nextStatus(s, x).status, "sent" as MessageStatus);
    expect(fold(["delivered", "read"])).toBe("read");
    expect(fold(["read", "delivered"])).toBe("read");
    expect(fold(["delivered", "failed"])).toBe("delivered");
    expect(fold(["failed", "delivered"])).toBe("failed");
  });
});
