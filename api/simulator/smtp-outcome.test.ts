import { describe, expect, it } from "vitest";
import { localPart, recipientOutcome, wantsReport } from "./smtp-outcome";

describe("the SMTP peer's recipient outcomes", () => {
  it("refuses bounce…, block… and defer… at RCPT TO with the reply of each", () => {
    expect(recipientOutcome("bounce@x.test")).toEqual({ at: "rcpt", code: 550, status: "5.1.1", reply: "5.1.1 <bounce@x.test>: Recipient address rejected: User unknown" });
    expect(recipientOutcome("Block.Me+1@x.test")).toMatchObject({ at: "rcpt", code: 554, status: "5.7.1" });
    expect(recipientOutcome("DEFER-7@x.test")).toMatchObject({ at: "rcpt", code: 451, status: "4.2.0" });
    expect((recipientOutcome("defer@x.test") as { reply: string }).reply).toMatch(/^4\.2\.0 <defer@x\.test>: /);
  });

  it("accepts the rest and names the reports that follow", () => {
    expect(recipientOutcome("late-bounce-1@x.test")).toEqual({ at: "data", reports: ["failed"] });
    expect(recipientOutcome("Complain@x.test")).toEqual({ at: "data", reports: ["delivered", "complaint"] });
    expect(recipientOutcome("delay.2@x.test")).toEqual({ at: "data", reports: ["delayed"] });
    expect(recipientOutcome("maria@x.test")).toEqual({ at: "data", reports: ["delivered"] });
    // A prefix is matched on the local part only, at its start.
    expect(recipientOutcome("maria@bounce.test")).toEqual({ at: "data", reports: ["delivered"] });
    expect(recipientOutcome("no-bounce@x.test")).toEqual({ at: "data", reports: ["delivered"] });
    expect(recipientOutcome('"bounce"@x.test')).toMatchObject({ at: "rcpt", code: 550 });
  });

  it("takes the local part before the last @, lower case, unquoted", () => {
    expect(localPart("Ana.Silva@Example.COM")).toBe("ana.silva");
    expect(localPart('"a@b"@x.test')).toBe("a@b");
    expect(localPart("nodomain")).toBe("nodomain");
  });

  it("sends the DSNs NOTIFY asks for; all of them without NOTIFY; a complaint always", () => {
    for (const kind of ["delivered", "failed", "delayed"] as const) {
      expect(wantsReport(kind, undefined)).toBe(true);
      expect(wantsReport(kind, [])).toBe(true);
      expect(wantsReport(kind, ["NEVER"])).toBe(false);
    }
    expect(wantsReport("delivered", ["FAILURE", "DELAY"])).toBe(false);
    expect(wantsReport("delivered", ["SUCCESS"])).toBe(true);
    expect(wantsReport("failed", ["SUCCESS"])).toBe(false);
    expect(wantsReport("failed", ["SUCCESS", "FAILURE"])).toBe(true);
    expect(wantsReport("delayed", ["FAILURE"])).toBe(false);
    expect(wantsReport("delayed", ["DELAY"])).toBe(true);
    expect(wantsReport("complaint", ["NEVER"])).toBe(true);
  });
});
