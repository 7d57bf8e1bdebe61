import { describe, expect, it } from "vitest";
import { currentGroup, NAV } from "./nav";

describe("currentGroup: the sidebar group whose <details> starts open", () => {
  it("is the group of the page's own link, or of the link sharing most of its path", () => {
    expect(currentGroup(NAV, "/")).toBe("main");
    expect(currentGroup(NAV, "/notifications")).toBe("main");
    expect(currentGroup(NAV, "/sms/history")).toBe("sms");
    expect(currentGroup(NAV, "/sms/reports/history")).toBe("sms");
    expect(currentGroup(NAV, "/live")).toBe("live");
    expect(currentGroup(NAV, "/live/history/00000000-0000-4000-8000-000000000001")).toBe("live");
    expect(currentGroup(NAV, "/chat/macros/00000000-0000-4000-8000-000000000001/edit")).toBe("live");
    expect(currentGroup(NAV, "/users/invite")).toBe("people");
    expect(currentGroup(NAV, "/billing/upgrade")).toBe("account");
    expect(currentGroup(NAV, "/admin/customers/00000000-0000-4000-8000-000000000001")).toBe("platform");
    expect(currentGroup(NAV, "/whatsapp/jv/numbers/new")).toBe("whatsapp");
  });

  it("is none for a page outside every group, and only among the groups the person is shown", () => {
    expect(currentGroup(NAV, "/403")).toBeUndefined();
    const withoutSms = NAV.filter((g) => g.key !== "sms");
    expect(currentGroup(withoutSms, "/sms/send")).toBeUndefined();
  });
});
